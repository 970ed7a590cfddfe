import Common
import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("db copy and reports from PostgreSQL", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct DatabaseCommandTests {
  let folder: TemporaryDirectory
  let sqlite: String
  let server: PostgreSQLTestServer
  let url: String

  /// An SQLite play log of three channels over three days (songs with MAPL flags, ads with advertisers and carts,
  /// jingles, every status, events) with a traffic schedule, and a configuration with the channels' time zones and
  /// the report settings.
  init() throws {
    folder = try TemporaryDirectory(prefix: "db-copy")
    sqlite = folder.file("plays.sqlite").path
    server = try PostgreSQLTestServer()
    url = try server.makeDatabase("plays")
    let store = try PlayLogStore(path: sqlite)
    var random = SeededGenerator(seed: 16)
    let channels = ["ckua", "cbc", "jazz"]
    let start = try #require(ISO8601Millis.parse("2026-01-12T00:00:00Z"))
    for channel in channels {
      var time = start.addingTimeInterval(Double(channels.firstIndex(of: channel)!) * 7)
      while time < start.addingTimeInterval(3 * 86_400) {
        let pick = Int.random(in: 0..<12, using: &random)
        let kind: ItemKind = pick < 8 ? .song : pick < 11 ? .ad : .jingle
        let seconds = kind == .ad ? 30 : Double(Int.random(in: 120...300, using: &random)) + 0.25
        let attributes: [String: String] =
          kind == .ad
          ? ["advertiser": "Shop \(pick)", "cart": "C\(pick)"] : ["mapl": ["M", "MA", "MAPL", ""][pick % 4]]
        try store.record(
          PlayRecord(
            channel: channel, itemKey: "\(kind.rawValue)-\(pick)",
            // Text as COPY escapes it (tab, backslash, line ends) comes through the snapshot as it was.
            title: pick == 7 ? "Tab\there, back\\slash, two\r\nlines\n" : "Title \(pick), \"quoted\"",
            artist: "Artist \(pick)",
            album: "Album", isrc: "CA\(kind.rawValue.prefix(1))\(pick)", label: "Label", kind: kind,
            attributes: attributes,
            itemDurationSeconds: seconds, start: time, end: time.addingTimeInterval(seconds),
            refOffsetSeconds: Double(pick) / 3, speed: 1 + Double(pick) / 1000, confidence: 0.5 + Double(pick) / 25,
            detectedAt: time.addingTimeInterval(4.5), status: pick == 5 ? .recovered : .closed))
        if kind == .ad && pick == 8 {
          // A clip of the airing as proof (the clip lacks its first 2 s): proof-of-play reads it.
          try store.record(
            PlayClipRecord(
              channel: channel, itemKey: "ad-8", playStart: time, playEnd: time.addingTimeInterval(seconds),
              clipStart: time.addingTimeInterval(2), clipEnd: time.addingTimeInterval(seconds),
              clipPath: "clips/\(channel)_\(Int(time.timeIntervalSince1970))_ad.opus"))
        }
        time = time.addingTimeInterval(seconds + Double(Int.random(in: 0...60, using: &random)))
      }
      try store.recordEvent(channel: channel, kind: .gap, start: start, end: start.addingTimeInterval(9), detail: "x")
      // The tables only some reports read (a snapshot of PostgreSQL copies a report's own): alerts, the labelled
      // air with unknown music, the listeners sampled from Icecast.
      let day = start.addingTimeInterval(86_400)
      #expect(try store.openAlert(channel: channel, kind: "silence", start: day, detail: "\(channel) silent"))
      try store.closeAlert(
        channel: channel, kind: "silence", start: day, end: day.addingTimeInterval(75), detail: "\(channel) silent")
      for index in 0..<4 {
        let at = day.addingTimeInterval(Double(index) * 600)
        try store.record(
          AirStretchRecord(
            channel: channel, start: at, end: at.addingTimeInterval(200), label: "unknown-music",
            musicConfidence: 0.8,
            unknown: AirStretchRecord.Unknown(cluster: Int64(index % 2), clusterOffsetSeconds: 0, fingerprint: "AAAA")))
      }
      for hour in 0..<72 {
        try store.recordListeners(
          channel: channel, sampledAt: start.addingTimeInterval(Double(hour) * 3_600), listeners: 40 + hour % 7)
      }
    }
    // A gap written without an end, as older builds wrote them, that the monitor's restart ends: reconcile reads
    // both, for one channel as for all.
    let gapStart = start.addingTimeInterval(86_400 + 15 * 3_600)  // 10:00 in Toronto
    try store.recordEvent(channel: "ckua", kind: .gap, start: gapStart, end: nil, detail: "stream down")
    try store.recordEvent(channel: nil, kind: .restart, start: gapStart.addingTimeInterval(1_800), detail: "restart")
    // jazz was down from two days before the plays to noon of their second day (UTC): a report of that day from
    // PostgreSQL must read the gap, though it began long before the day.
    try store.recordEvent(
      channel: "jazz", kind: .gap, start: start.addingTimeInterval(-2 * 86_400),
      end: start.addingTimeInterval(86_400 + 12 * 3_600), detail: "jazz down for days")
    // cbc's gap left open a week before, which the restart after it ends: not read as reaching into the span.
    let week = start.addingTimeInterval(-7 * 86_400)
    try store.recordEvent(channel: "cbc", kind: .gap, start: week, end: nil, detail: "old gap, ended by a restart")
    try store.recordEvent(channel: nil, kind: .restart, start: week.addingTimeInterval(3_600), detail: "restart")
    // ckua's monitor was killed at 11:30 in Toronto on the second day and not started again: reconcile calls its
    // spots after that unmonitored, from either engine (`db copy` does not move heartbeats: `copy()` adds it).
    try store.recordHeartbeat([ChannelHeartbeat(channel: "ckua", heardThrough: Self.ckuaHeardThrough)])
    try store.close()
    try Data(
      """
      {channels: [{name: "ckua", source: "jack", timeZone: "America/Toronto"},
         {name: "cbc", source: "jack", timeZone: "America/Vancouver"}, {name: "jazz", source: "jack"}],
       reports: {soundExchange: {serviceName: "CKUA", transmissionCategory: "B"},
         quotaRules: [{name: "CanCon", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2,
           targetPercent: 35}]}}
      """.utf8
    ).write(to: folder.file("monitor.json5"))
    try Data(
      """
      channel;scheduled_at;cart;advertiser;title;length_s
      ckua;2026-01-13 10:00:00;C8;Shop 8;Spot;0:30
      ckua;2026-01-13 10:10:00;C98;Shop 98;Spot;0:30
      ckua;2026-01-13 12:00:00;C99;Shop 99;Spot;0:30
      cbc;2026-01-13 11:00:00;C9;Shop 9;Spot;0:30
      jazz;2026-01-13 10:00:00;C97;Shop 97;Spot;0:30
      cbc;2026-01-13 06:00:00;C96;Shop 96;Spot;0:30

      """.utf8
    ).write(to: folder.file("traffic.csv"))
    let imported = try CLI.run(
      ["schedule", "import", "--db", sqlite, "--config", "monitor.json5", "traffic.csv"], in: folder.url)
    try #require(imported.status == 0, "\(imported)")
  }

  /// 2026-01-13 11:30 in Toronto.
  static let ckuaHeardThrough = ISO8601Millis.parse("2026-01-13T16:30:00Z")!

  /// `db copy` into PostgreSQL, then, when it copied, the fixture's heartbeat (live state, which it does not move).
  func copy() throws -> Subprocess.Result {
    let copied = try CLI.run(["db", "copy", "--from", sqlite, "--to", url], in: folder.url)
    guard copied.status == 0 else { return copied }
    let milliseconds = Int64((Self.ckuaHeardThrough.timeIntervalSince1970 * 1000).rounded())
    try server.psql(
      "INSERT INTO channel_heartbeats SELECT id, '', \(milliseconds) FROM channels WHERE name = 'ckua' "
        + "ON CONFLICT DO NOTHING",
      database: "plays")
    return copied
  }

  @Test("db copy moves every row, verified; run again it copies what is missing and nothing twice")
  func copyIsVerifiedAndResumable() throws {
    let first = try copy()
    #expect(first.status == 0, "\(first)")
    #expect(first.stderr.contains("db copy: verified"), "\(first)")
    let total = try server.psql("SELECT count(*) FROM plays", database: "plays")
    #expect(Int(total.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 1000)

    // An interrupted copy: the last rows never arrived.
    try server.psql("DELETE FROM plays WHERE id > 500", database: "plays")
    let resumed = try copy()
    #expect(resumed.status == 0, "\(resumed)")
    #expect(resumed.stderr.contains("db copy: plays: \(Int(total.dropLast())! - 500) rows copied now"), "\(resumed)")
    #expect(try server.psql("SELECT count(*) FROM plays", database: "plays") == total)

    let again = try copy()
    #expect(again.status == 0 && again.stderr.contains("db copy: plays: 0 rows copied now"), "\(again)")

    // A row changed on one side is found by the checksum.
    try server.psql("UPDATE plays SET end_ms = end_ms + 1 WHERE id = 7", database: "plays")
    let changed = try copy()
    #expect(changed.status == 65, "\(changed)")
    #expect(changed.stderr.contains("plays:") && changed.stderr.contains("checksum DIFFERENT"), "\(changed)")
  }

  @Test("db copy into a database that holds another play log is refused before anything is written (65)")
  func otherPlayLogRefused() throws {
    // Another station's play log, copied in first: one channel, one play, under the ids the copy would use.
    let other = folder.file("other.sqlite").path
    let store = try PlayLogStore(path: other)
    let start = try #require(ISO8601Millis.parse("2026-02-01T00:00:00Z"))
    try store.record(
      PlayRecord(
        channel: "news", itemKey: "jingle-news", title: "News Jingle", artist: "", album: "", isrc: "", label: "",
        kind: .jingle, attributes: [:], itemDurationSeconds: 5, start: start, end: start.addingTimeInterval(5),
        refOffsetSeconds: 0, speed: 1, confidence: 0.9, detectedAt: start.addingTimeInterval(3), status: .closed))
    try store.close()
    let first = try CLI.run(["db", "copy", "--from", other, "--to", url], in: folder.url)
    try #require(first.status == 0, "\(first)")
    let before = try server.psql(
      "SELECT (SELECT string_agg(name, ',') FROM channels), (SELECT count(*) FROM plays)", database: "plays")

    let refused = try copy()
    #expect(refused.status == 65, "\(refused)")
    #expect(refused.stderr.contains("db copy: channels: the 1 rows in"), "\(refused.stderr)")
    #expect(refused.stderr.contains("so nothing was copied"), "\(refused.stderr)")
    #expect(
      try server.psql(
        "SELECT (SELECT string_agg(name, ',') FROM channels), (SELECT count(*) FROM plays)", database: "plays")
        == before)
  }

  @Test("db copy of a play log a monitor holds is refused at once (75), naming it")
  func heldPlayLogRefused() throws {
    let monitor = try PlayLogLock(playLog: sqlite, command: "run")
    defer { monitor.release() }
    let refused = try copy()
    #expect(refused.status == 75, "\(refused)")
    #expect(refused.stderr.contains("`run`, pid \(getpid())"), "\(refused.stderr)")
    #expect(try server.psql("SELECT to_regclass('plays') IS NULL", database: "plays").hasPrefix("t"), "no table made")
  }

  @Test("schedule import writes into a PostgreSQL play log, and reconcile from it gives what it gives from SQLite")
  func scheduleIntoPostgreSQL() throws {
    try #require(try copy().status == 0)
    try Data(
      "channel;scheduled_at;cart;advertiser;title;length_s\nckua;2026-01-14 09:00:00;C8;Shop 8;Spot;0:30\n".utf8
    ).write(to: folder.file("more.csv"))
    for db in [sqlite, url] {
      let imported = try CLI.run(
        ["schedule", "import", "--db", db, "--config", "monitor.json5", "more.csv"], in: folder.url)
      #expect(imported.status == 0 && imported.stderr.contains("1 scheduled spots from more.csv"), "\(imported)")
    }
    #expect(try server.psql("SELECT count(*) FROM schedule", database: "plays").hasPrefix("7"))
    // The same spot with its cart in another case replaces it, spelling included.
    try Data(
      "channel;scheduled_at;cart;advertiser;title;length_s\nckua;2026-01-14 09:00:00;c8;Shop 8;Spot;0:30\n".utf8
    ).write(to: folder.file("again.csv"))
    for db in [sqlite, url] {
      let imported = try CLI.run(
        ["schedule", "import", "--db", db, "--config", "monitor.json5", "again.csv"], in: folder.url)
      #expect(imported.status == 0, "\(imported)")
    }
    #expect(try server.psql("SELECT count(*) FROM schedule", database: "plays").hasPrefix("7"))
    let carts = try server.psql("SELECT cart FROM schedule ORDER BY scheduled_at_ms, cart", database: "plays")
    #expect(carts.split(separator: "\n") == ["C97", "C96", "C8", "C98", "C99", "C9", "c8"], "\(carts)")
    let reconcile = ["report", "reconcile", "--config", "monitor.json5", "--from", "2026-01-13", "--to", "2026-01-15"]
    let fromSQLite = try CLI.run(reconcile + ["--db", sqlite], in: folder.url)
    let fromPostgreSQL = try CLI.run(reconcile + ["--db", url], in: folder.url)
    #expect(fromSQLite.status == 0 && fromSQLite.stdout.contains("2026-01-14T09:00:00"), "\(fromSQLite)")
    #expect(fromPostgreSQL.stdout == fromSQLite.stdout, "\(fromPostgreSQL)")
    #expect(
      fromSQLite.stdout.split(whereSeparator: \.isNewline).contains {
        $0.hasPrefix("ckua,C99,") && $0.contains(",unmonitored,")
      },
      "ckua's spot after its heartbeat: \(fromSQLite.stdout)")
    #expect(
      fromSQLite.stdout.split(whereSeparator: \.isNewline).contains {
        $0.hasPrefix("jazz,C97,") && $0.contains(",unmonitored,")
      }, "jazz's spot in its long gap: \(fromSQLite.stdout)")
    #expect(
      fromSQLite.stdout.split(whereSeparator: \.isNewline).contains {
        $0.hasPrefix("cbc,C96,") && $0.contains(",missed,")
      }, "cbc's spot, heard: \(fromSQLite.stdout)")
  }

  @Test("Every report gives the same bytes from PostgreSQL as from SQLite for the same plays")
  func reportsAreByteIdentical() throws {
    try #require(try copy().status == 0)
    // The channels' own zones for plays and reconcile; UTC where a report adds channels up by local day.
    let reports: [[String]] = [
      ["plays"], ["plays", "--channel", "cbc", "--from", "2026-01-13", "--to", "2026-01-14"],
      ["reconcile", "--tolerance", "30"], ["reconcile", "--from", "2026-01-13", "--to", "2026-01-14"],
      ["airplay", "--tz", "UTC"], ["airplay", "--by-channel"], ["airplay", "--by-channel", "--from", "2026-01-13"],
      [
        "airplay", "--from", "2026-01-12T12:00:00Z", "--to", "2026-01-14T00:00:00-08:00", "--group", "day", "--tz",
        "UTC",
      ],
      ["airplay", "--group", "day", "--by-channel"], ["airplay", "--group", "week", "--tz", "UTC"],
      ["soundexchange", "--tz", "UTC"], ["soundexchange", "--format", "pipe", "--tz", "UTC"],
      ["quota", "--channel", "ckua"], ["quota", "--group", "day", "--tz", "UTC"], ["proof-of-play"],
      ["proof-of-play", "--kind", "jingle"], ["proof-of-play", "--channel", "cbc"],
      ["reconcile", "--channel", "ckua", "--from", "2026-01-13", "--to", "2026-01-14"],
      ["airplay", "--channel", "jazz", "--group", "day"],
      ["soundexchange", "--channel", "ckua", "--from", "2026-01-13"], ["alerts"], ["alerts", "--channel", "cbc"],
      ["segments", "--tz", "UTC"], ["segments", "--channel", "jazz", "--from", "2026-01-13"],
      ["unknown", "--tz", "UTC"],
    ]
    for arguments in reports {
      let fromSQLite = try CLI.run(
        ["report"] + arguments + ["--db", sqlite, "--config", "monitor.json5"], in: folder.url)
      let fromPostgreSQL = try CLI.run(
        ["report"] + arguments + ["--db", url, "--config", "monitor.json5"], in: folder.url)
      #expect(fromSQLite.status == 0, "report \(arguments.joined(separator: " ")): \(fromSQLite.stderr)")
      #expect(fromSQLite.stdout.count > 100, "\(arguments): \(fromSQLite)")
      #expect(fromPostgreSQL.status == 0, "\(arguments): \(fromPostgreSQL)")
      #expect(fromPostgreSQL.stdout == fromSQLite.stdout, "report \(arguments.joined(separator: " "))")
    }
  }
}
