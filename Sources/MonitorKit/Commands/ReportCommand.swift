import Common
import Foundation
import Matcher
import Reports

/// `broadcast-monitor report KIND`: airplay and compliance reports from the play log, as CSV (RFC 4180, UTF-8, one
/// header row). It reads through its own read-only connection, so it runs while the monitor writes.
///
/// A station's time zone is `--tz` when given, else the channel's `timeZone` in `--config`, else the machine's
/// time zone (the same default the monitor configuration uses); `--tz UTC` prints times with `Z`.
enum ReportCommand {
  static var kinds: [String] { CommandTable.report.subcommands.map(\.name) }

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let a = try CommandLineArguments(args, for: CommandTable.report)
    guard a.positionals.count == 1, let kind = a.positionals.first, kinds.contains(kind) else {
      let given = a.positionals.isEmpty ? "no report kind" : "`\(a.positionals.joined(separator: " "))`"
      throw UsageError(
        "\(given): name one report kind (\(kinds.joined(separator: ", ")))\n\(CommandHelp.help(CommandTable.report))")
    }
    try checkOptions(a, kind: kind)

    let configuration = try a.value("config").map(loadConfiguration)
    guard let database = a.value("db") ?? configuration?.databasePath, !database.isEmpty else {
      throw UsageError("--db is required (or --config with databasePath)")
    }
    try checkValues(a)  // before the play log is opened: a mistyped option is named first
    let (reader, snapshot) = try openPlayLog(database, a, configuration: configuration)
    defer { withExtendedLifetime(snapshot) {} }
    let started = Date()
    let progress = ProgressReporter()
    if kind == "soundexchange" {
      try writeSoundExchange(
        a, scope: try scope(a, configuration: configuration, note: printError),
        settings: configuration?.reports ?? ReportSettings(), reader: reader, progress: progress)
      return 0
    }
    let output = try ReportOutput(path: a.value("out"), pipeDelimited: false)
    try write(kind, a, configuration: configuration, reader: reader, to: output.sink, note: printError) { fraction in
      progress.update(
        String(format: "report %@: %.0f %% (%.0f s)", kind, fraction * 100, Date().timeIntervalSince(started)))
    }
    try output.finish()
    progress.finish()
    printError(
      String(
        format: "report %@: %d rows written to %@ in %.1f s", kind, output.rows - 1, a.value("out") ?? "stdout",
        Date().timeIntervalSince(started)))
    return 0
  }

  /// Opens the play log at `database` for a report as `a` describes it. A PostgreSQL play log is read through a
  /// snapshot in SQLite (only the span, channel and tables the report reads): one report implementation for both
  /// engines.
  /// Keep the snapshot (nil for an SQLite file) as long as the reader: its file goes with it.
  static func openPlayLog(
    _ database: String, _ a: CommandLineArguments, configuration: MonitorConfiguration?
  ) throws -> (reader: PlayLogReader, snapshot: PostgreSQLPlayLogSnapshot?) {
    let snapshot =
      try PlayLogLocation.isPostgreSQL(database)
      ? PostgreSQLPlayLogSnapshot(
        url: database, passwordFile: configuration?.database.passwordFile,
        scope: try scope(a, configuration: configuration, note: { _ in }),
        tables: a.positionals.first.flatMap(ReportTables.read(by:)))
      : nil
    return (try PlayLogReader(path: snapshot?.path ?? database), snapshot)
  }

  /// Writes report `kind` (any but soundexchange) as `a` describes it, from `reader` to `sink`. `run` writes to a
  /// file or standard output, the HTTP API (`ReportEndpoint`) to memory. Notes for a person go to `note`.
  static func write(
    _ kind: String, _ a: CommandLineArguments, configuration: MonitorConfiguration?, reader: PlayLogReader,
    to sink: CountingRowSink, note: (String) -> Void, progress report: @escaping (Double) -> Void = { _ in }
  ) throws {
    let scope = try scope(a, configuration: configuration, note: note)
    let grouping = try a.value("group").map { text throws(UsageError) -> ReportGrouping in
      guard let grouping = ReportGrouping(rawValue: text) else {
        throw UsageError("--group \(text): use day, week or month")
      }
      return grouping
    }
    let settings = configuration?.reports ?? ReportSettings()
    switch kind {
    case "plays":
      try PlaysReport(scope: scope).write(from: reader, to: sink, progress: report)
    case "segments":
      try SegmentsReport(scope: scope).write(from: reader, to: sink)
    case "unknown":
      try UnknownReport(scope: scope).write(from: reader, to: sink)
    case "airplay":
      try AirplayReport(scope: scope, byChannel: a.has("by-channel"), grouping: grouping)
        .write(from: reader, to: sink, progress: report)
    case "quota":
      let rules = try settings.quotaRules(origin: ConfigurationOrigin(file: a.value("config")))
      guard !rules.isEmpty else {
        throw ReportError.missingSetting(
          key: "reports.quotaRules", example: "quotaRules: [{name: \"CanCon\", attribute: \"mapl\", …}]")
      }
      let known = Set(try reader.channels().values)
      for rule in rules {
        for channel in (rule.channels ?? []).sorted() where !known.contains(channel) {
          note(
            "report quota: rule \"\(rule.name)\" names channel \"\(channel)\", which the play log does not have; "
              + "check reports.quotaRules[].channels")
        }
      }
      try QuotaReport(scope: scope, rules: rules, grouping: grouping)
        .write(from: reader, to: sink, progress: report)
    case "alerts":
      try AlertsReport(scope: scope).write(from: reader, to: sink)
    case "reconcile":
      try ReconcileReport(
        scope: scope,
        toleranceSeconds: a.value("tolerance").flatMap(Double.init) ?? ReconcileReport.defaultToleranceSeconds,
        kind: a.value("kind").flatMap(ItemKind.init(rawValue:)) ?? settings.proofOfPlay.kind,
        advertiserAttribute: settings.proofOfPlay.advertiserAttribute
      ).write(from: reader, to: sink, progress: report)
    default:
      try ProofOfPlayReport(
        scope: scope, kind: a.value("kind").flatMap(ItemKind.init(rawValue:)) ?? settings.proofOfPlay.kind,
        advertiserAttribute: settings.proofOfPlay.advertiserAttribute
      ).write(from: reader, to: sink, progress: report)
    }
  }

  /// The channels, period and time zones `a` and `configuration` select.
  private static func scope(
    _ a: CommandLineArguments, configuration: MonitorConfiguration?, note: (String) -> Void
  ) throws -> ReportScope {
    var scope = ReportScope(
      channelName: a.value("channel"), from: try bound(a, "from"), to: try bound(a, "to"),
      timeZoneOverride: try a.value("tz").map(timeZone), defaultTimeZone: .current)
    for channel in configuration?.channels ?? [] {
      scope.channelTimeZones[channel.name] = TimeZone(identifier: channel.timeZone)
    }
    if scope.timeZoneOverride == nil && configuration == nil {
      note(
        "report: times in the machine's time zone, \(TimeZone.current.identifier); pass --config (the channels' "
          + "timeZone) or --tz ZONE for another")
    }
    return scope
  }

  /// Refuses a period, time zone or grouping that cannot be read.
  static func checkValues(_ a: CommandLineArguments) throws(UsageError) {
    _ = try bound(a, "from")
    _ = try bound(a, "to")
    _ = try a.value("tz").map(timeZone)
    if let text = a.value("group"), ReportGrouping(rawValue: text) == nil {
      throw UsageError("--group \(text): use day, week or month")
    }
  }

  /// Refuses options that the report kind does not take.
  static func checkOptions(_ a: CommandLineArguments, kind: String) throws(UsageError) {
    // Each kind's own options, from its declaration.
    var only: [String: Set<String>] = [:]
    for kindSpec in CommandTable.report.subcommands {
      for option in kindSpec.options { only[option.name, default: []].insert(kindSpec.name) }
    }
    for (option, kinds) in only.sorted(by: { $0.key < $1.key })
    where (a.options[option] != nil || a.flags.contains(option)) && !kinds.contains(kind) {
      throw UsageError("--\(option) is for the \(kinds.sorted().joined(separator: " and ")) report, not \(kind)")
    }
    if let itemKind = a.value("kind"), ItemKind(rawValue: itemKind) == nil {
      throw UsageError("--kind \(itemKind): use \(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let maximumToleranceSeconds = Double(ReconcileReport.matchWindowMilliseconds) / 1000
    if let tolerance = a.value("tolerance"),
      !(Double(tolerance).map { $0 >= 0 && $0 <= maximumToleranceSeconds } ?? false)
    {
      throw UsageError(
        "--tolerance \(tolerance): give seconds from 0 to \(Int(maximumToleranceSeconds)), such as 60 (a spot is "
          + "matched to an airing at most that far from its time)")
    }
    if a.value("out") != nil && a.value("out-dir") != nil {
      throw UsageError("--out and --out-dir: give one (--out-dir writes one file per service)")
    }
    if let format = a.value("format"), format != "csv" && format != "pipe" {
      throw UsageError("--format \(format): use csv or pipe")
    }
  }

  /// The configuration file, for the channels' time zones, the play log and the `reports` section. The catalog,
  /// the channels' sources and the other sections are not needed by reports, so they are not checked here.
  static func loadConfiguration(_ path: String) throws(ConfigurationError) -> MonitorConfiguration {
    let configuration = try MonitorConfiguration.decode(
      file: path, currentDirectory: FileManager.default.currentDirectoryPath,
      suppliedElsewhere: [.catalogPath, .databasePath, .channels])
    let origin = ConfigurationOrigin(file: path)
    for (i, channel) in configuration.channels.enumerated() where TimeZone(identifier: channel.timeZone) == nil {
      throw ConfigurationError(
        keyPath: origin.place(ofChannel: i, "timeZone"),
        reason: "unknown time zone `\(channel.timeZone)`; use an IANA name such as Europe/Berlin or UTC")
    }
    try configuration.reports.validate(origin: origin)
    return configuration
  }

  private static func bound(_ a: CommandLineArguments, _ option: String) throws(UsageError) -> ReportBound? {
    guard let text = a.value(option) else { return nil }
    guard let bound = ReportBound(text) else {
      throw UsageError(
        "--\(option) \(text): use a date YYYY-MM-DD (local midnight) or an ISO 8601 time with its zone such as "
          + "2026-03-01T06:00:00-05:00")
    }
    let milliseconds: Int64
    switch bound {
    case .localDay(let day): milliseconds = day * 86_400_000
    case .instant(let instant): milliseconds = instant
    }
    guard boundMilliseconds.contains(milliseconds) else {
      throw UsageError(
        "--\(option) \(text): give a time in the years 1900 to 2199 (leave --\(option) out for no bound); no play "
          + "log holds plays outside them")
    }
    return bound
  }

  /// The times a bound may name, 1900-01-01 to 2200-01-01 UTC: the report's calendar reads the time zone's offsets
  /// hour by hour across its span, so a bound thousands of years away took minutes (`--from 9513-11-29`: 16 s).
  static let boundMilliseconds: ClosedRange<Int64> = -2_208_988_800_000...7_258_118_400_000

  private static func timeZone(_ name: String) throws(UsageError) -> TimeZone {
    guard let zone = TimeZone(identifier: name) else {
      throw UsageError("--tz \(name): unknown time zone; use an IANA name such as America/Toronto or UTC")
    }
    return zone
  }
}
