import Foundation
import Matcher
import Reports

/// `broadcast-monitor schedule import --db FILE [--config monitor.json5] [--tz ZONE] TRAFFIC.csv`: reads the
/// traffic system's log of scheduled spots into the play log, for `report reconcile`. It writes in one short
/// transaction, so it runs while the monitor writes.
enum ScheduleCommand {
  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let spec = CommandTable.schedule
    guard let sub = args.first else { throw UsageError(CommandHelp.help(spec)) }
    guard let importSpec = spec.subcommand(sub) else { throw UsageError(CommandHelp.unknownSubcommand(sub, of: spec)) }
    let a = try CommandLineArguments(args.dropFirst(), for: importSpec)
    guard a.positionals.count == 1, let file = a.positionals.first else {
      throw UsageError("name one traffic log file\n\(CommandHelp.help(importSpec))")
    }
    let configuration = try a.value("config").map(ReportCommand.loadConfiguration)
    guard let database = a.value("db") ?? configuration?.databasePath, !database.isEmpty else {
      throw UsageError("--db is required (or --config with databasePath)")
    }
    let override = try a.value("tz").map { name throws(UsageError) -> TimeZone in
      guard let zone = TimeZone(identifier: name) else {
        throw UsageError("--tz \(name): unknown time zone; use an IANA name such as America/Toronto or UTC")
      }
      return zone
    }
    var zones: [String: TimeZone] = [:]
    for channel in configuration?.channels ?? [] { zones[channel.name] = TimeZone(identifier: channel.timeZone) }
    let spots = try TrafficLogFile.read(path: file) { override ?? zones[$0] ?? .current }
    let known = Set(configuration?.channels.map(\.name) ?? [])
    for channel in Set(spots.map(\.channel)).sorted() where configuration != nil && !known.contains(channel) {
      printError("schedule import: channel \"\(channel)\" is not in \(a.value("config") ?? ""); check its name")
    }
    let store = try PlayLogStore(path: database)
    let written = try store.importSchedule(spots)
    try store.close()
    printError("schedule import: \(written) scheduled spots from \(file) into \(database)")
    return 0
  }
}
