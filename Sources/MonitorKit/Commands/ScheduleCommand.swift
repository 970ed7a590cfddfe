import Foundation
import Matcher
import Reports

/// `broadcast-monitor schedule import --db FILE|postgresql://… [--config monitor.json5] [--tz ZONE] TRAFFIC.csv`:
/// reads the traffic system's log of scheduled spots into the play log (SQLite or PostgreSQL), for `report
/// reconcile`. It writes in one transaction, so it runs while the monitor writes.
enum ScheduleCommand {
  /// Some spots were not imported (named on stderr), the others were: as `catalog add` with files it skipped.
  static let skippedStatus: Int32 = 2

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
    func zone(of channel: String) -> TimeZone { override ?? zones[channel] ?? .current }
    var spots = try TrafficLogFile.read(path: file, timeZone: zone(of:))
    // With a configuration, a spot of a channel it does not have is not written: reconcile would report it missed,
    // and a name in another case (`FM` for `fm`) would add a channel that nothing monitors.
    var skipped = 0
    if let configuration, let configPath = a.value("config") {
      let known = configuration.channels.map(\.name)
      for channel in Set(spots.map(\.channel)).sorted() where !known.contains(channel) {
        let count = spots.filter { $0.channel == channel }.count
        let near = known.first { $0.lowercased() == channel.lowercased().trimmingCharacters(in: .whitespaces) }
        printError(
          DisplayWidth.printable(
            "schedule import: skipped \(count) spots of channel \"\(channel)\", which \(configPath) does not have "
              + (near.map { "(did you mean \"\($0)\"?)" } ?? "(its channels: \(known.joined(separator: ", ")))")
              + "; correct the name in the traffic log, or import without --config to keep them"))
        skipped += count
      }
      spots.removeAll { !known.contains($0.channel) }
    }
    let replacing = a.has("replace") ? Self.days(of: spots, zone: zone(of:)) : []
    let store = try PlayLogLocation.openExisting(
      database, command: "schedule-import", passwordFile: configuration?.database.passwordFile)
    let written = try store.importSchedule(spots, replacing: replacing)
    try store.close()
    if !replacing.isEmpty {
      printError(
        "schedule import: replaced the schedule of \(replacing.count) channel-days (--replace: "
          + Set(replacing.map(\.channel)).sorted().joined(separator: ", ") + ")")
    }
    printError("schedule import: \(written) scheduled spots from \(file) into \(database)")
    return skipped == 0 ? 0 : Self.skippedStatus
  }

  /// Each channel's local days that `spots` fall on, in the channel's zone, in order: what `--replace` empties.
  static func days(of spots: [ScheduledSpot], zone: (String) -> TimeZone) -> [ScheduleSpan] {
    var spans = Set<ScheduleSpan>()
    for spot in spots {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone(spot.channel)
      let start = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(spot.scheduledAtMilliseconds) / 1000))
      guard let end = calendar.date(byAdding: .day, value: 1, to: start) else { continue }
      spans.insert(
        ScheduleSpan(
          channel: spot.channel, fromMilliseconds: Int64((start.timeIntervalSince1970 * 1000).rounded()),
          toMilliseconds: Int64((end.timeIntervalSince1970 * 1000).rounded())))
    }
    return spans.sorted { ($0.channel, $0.fromMilliseconds) < ($1.channel, $1.fromMilliseconds) }
  }
}
