import Common
import Foundation
import Matcher
import Reports

/// `GET /api/v1/reports/KIND.csv?from=&to=&...`: the same CSV as `report KIND`, through the report command's own
/// code (`ReportCommand.write`), with its options as query parameters (`by-channel` as `by-channel=true`). The play
/// log, the channels' time zones and the `reports` settings are the running monitor's; a PostgreSQL play log is read
/// as `report` reads it, through a snapshot in SQLite of the report's span (`ReportCommand.openPlayLog`). Options that
/// name files on the server (`db`, `config`, `out`, `out-dir`, `icecast-log`, `audience`) are refused, and so is
/// `soundexchange`, which writes one file per service: run `report soundexchange` for it.
enum ReportEndpoint {
  /// Options of `report` that are not query parameters: the server chooses the files.
  static let refusedOptions: Set<String> = ["db", "config", "out", "out-dir", "icecast-log", "audience", "format"]

  /// Options whose values are times or dates, where a space was a `+` (`APIQuery.restoringPlus`).
  static let timeOptions: Set<String> = ["from", "to"]

  /// The report kinds served, in the order `report` lists them.
  static var kinds: [String] { ReportCommand.kinds.filter { $0 != "soundexchange" } }

  static func response(kind: String, query: [(name: String, value: String)], configuration: MonitorConfiguration)
    -> HTTPResponse
  {
    guard kinds.contains(kind) else {
      let reason =
        kind == "soundexchange"
        ? "the soundexchange report writes one file per service: run `broadcast-monitor report soundexchange`"
        : "no report `\(kind)`"
      return .error(404, "\(reason); the reports here are \(kinds.map { "\($0).csv" }.joined(separator: ", "))")
    }
    let options = CommandTable.report.parsedOptions
    var words = [kind]
    var given = Set<String>()
    for (name, value) in query {
      guard given.insert(name).inserted else { return .error(400, APIQuery.Problem.givenTwice(name).description) }
      guard let option = options.first(where: { $0.name == name }), !refusedOptions.contains(name) else {
        var allowed: [String] = []
        for option in options where !refusedOptions.contains(option.name) && !allowed.contains(option.name) {
          allowed.append(option.name)
        }
        return .error(400, "unknown query parameter `\(name)`; a report takes \(allowed.joined(separator: ", "))")
      }
      if option.valueName == nil {
        guard ["", "true", "1"].contains(value) else {
          return .error(400, "\(name)=\(value): a switch; give \(name)=true or leave it out")
        }
        words.append("--\(name)")
      } else {
        words.append("--\(name)=\(Self.timeOptions.contains(name) ? APIQuery.restoringPlus(value) : value)")
      }
    }
    do {
      let arguments = try CommandLineArguments(words[...], for: CommandTable.report)
      try ReportCommand.checkOptions(arguments, kind: kind)
      try ReportCommand.checkValues(arguments)
      let reader: PlayLogReader
      let snapshot: PostgreSQLPlayLogSnapshot?
      do {
        (reader, snapshot) = try ReportCommand.openPlayLog(
          configuration.databasePath, arguments, configuration: configuration)
      } catch let error as PostgreSQLError {
        return .error(503, "the play log cannot be read now: \(error)")
      } catch let error as SQLiteError {
        return .error(503, "the play log cannot be read now: \(error)")
      }
      defer {
        try? reader.close()
        withExtendedLifetime(snapshot) {}
      }
      let csv = CSVWriter()
      try ReportCommand.write(
        kind, arguments, configuration: configuration, reader: reader, to: CountingRowSink(csv), note: { _ in })
      var response = HTTPResponse.text(csv.text, contentType: "text/csv; charset=utf-8")
      response.headers = [("Content-Disposition", "attachment; filename=\"\(kind).csv\"")]
      return response
    } catch let error as UsageError {
      return .error(400, queryWording(error.description))
    } catch let error as ReportError {
      return .error(400, apiWording(error))
    } catch let error as ConfigurationError {
      return .error(400, "\(error)")
    } catch {
      return .error(500, "report \(kind) failed: \(error)")
    }
  }

  /// The command's message in the query's words: `--from X: …` becomes `from=X: …`, `--tz ZONE` `tz=ZONE`, a switch
  /// `--by-channel` `by-channel=true`, any other `--name` `name`.
  static func queryWording(_ message: String) -> String {
    let switches = Set(CommandTable.report.parsedOptions.filter { $0.valueName == nil }.map(\.name))
    return message.replacing(/--([a-z-]+) ([^ :]*):/) { "\($0.output.1)=\($0.output.2):" }
      .replacing(/--([a-z-]+) ([A-Z][A-Z_]*)\b/) { "\($0.output.1)=\($0.output.2)" }
      .replacing(/--([a-z-]+)/) { switches.contains(String($0.output.1)) ? "\($0.output.1)=true" : "\($0.output.1)" }
  }

  /// A report's error in the API's words: query parameters for the command's options, and for a setting the
  /// report needs, the monitor's own configuration, reloaded (the API takes no `--config`).
  static func apiWording(_ error: ReportError) -> String {
    switch error {
    case .missingSetting(let key, let example):
      "the monitor's configuration has no \(key); add it to its `reports` section (for example \(example)), as "
        + "config/monitor.example.json5 shows, and reload the monitor (SIGHUP: `systemctl reload broadcast-monitor`)"
    default:
      queryWording(error.description)
    }
  }
}
