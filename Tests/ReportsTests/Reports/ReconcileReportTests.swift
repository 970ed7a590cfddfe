import Foundation
import Testing

@testable import Reports

@Suite("ReconcileReport")
struct ReconcileReportTests {
  @Test(
    "A test day with every status reconciles exactly: aired, late, early, partial, wrong channel, missed, unscheduled")
  func everyStatus() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T09:00:20Z", seconds: 30),  // aired, 20 s late
      .init(channel: "ckua", item: "car", start: "2026-01-20T10:05:00Z", seconds: 15),  // 5 min late
      .init(channel: "ckua", item: "sale", start: "2026-01-20T10:58:00Z", seconds: 30),  // 2 min early
      .init(channel: "ckua", item: "car", start: "2026-01-20T12:00:05Z", seconds: 10),  // cut: 10 of 15 s
      .init(channel: "fip", item: "sale", start: "2026-01-20T13:01:00Z", seconds: 30),  // on the other channel
      .init(channel: "ckua", item: "sale", start: "2026-01-20T15:00:00Z", seconds: 30),  // never scheduled
      .init(channel: "ckua", item: "north", start: "2026-01-20T15:01:00Z", seconds: 180),  // a song: not a spot
    ])
    defer { fixture.remove() }
    func spot(_ time: String, _ cart: String, _ advertiser: String, _ title: String, _ seconds: Int64) -> ScheduledSpot
    {
      ScheduledSpot(
        channel: "ckua", scheduledAtMilliseconds: ISO8601Millis.parseMillisecondsSince1970(time)!, cart: cart,
        advertiser: advertiser, title: title, lengthMilliseconds: seconds * 1000)
    }
    let store = try PlayLogStore(path: fixture.path)
    let spots = [
      spot("2026-01-20T09:00:00Z", "C1001", "Hardware Co", "Spring Sale", 30),
      spot("2026-01-20T10:00:00Z", "auto0015000h", "Auto Dealer", "Car Deal", 15),
      spot("2026-01-20T11:00:00Z", "C1001", "Hardware Co", "Spring Sale", 30),
      spot("2026-01-20T12:00:00Z", "AUTO0015000H", "Auto Dealer", "Car Deal", 15),
      spot("2026-01-20T13:00:00Z", "C1001", "Hardware Co", "Spring Sale", 30),
      spot("2026-01-20T14:00:00Z", "AUTO0015000H", "Auto Dealer", "Car Deal", 15),
    ]
    #expect(try store.importSchedule(spots) == 6)
    #expect(try store.importSchedule(spots) == 6, "importing the same log again replaces it")
    try store.close()

    let scope = ReportScope(timeZoneOverride: .utc)
    let text = try fixture.csv { try ReconcileReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          "channel,cart,advertiser,title,scheduled_at,aired_start,aired_end,offset_s,status,aired_channel",
          "ckua,C1001,Hardware Co,Spring Sale,2026-01-20T09:00:00.000Z,2026-01-20T09:00:20.000Z,"
            + "2026-01-20T09:00:50.000Z,20.000,aired,ckua",
          "ckua,auto0015000h,Auto Dealer,Car Deal,2026-01-20T10:00:00.000Z,2026-01-20T10:05:00.000Z,"
            + "2026-01-20T10:05:15.000Z,300.000,aired-late,ckua",
          "ckua,C1001,Hardware Co,Spring Sale,2026-01-20T11:00:00.000Z,2026-01-20T10:58:00.000Z,"
            + "2026-01-20T10:58:30.000Z,-120.000,aired-early,ckua",
          "ckua,AUTO0015000H,Auto Dealer,Car Deal,2026-01-20T12:00:00.000Z,2026-01-20T12:00:05.000Z,"
            + "2026-01-20T12:00:15.000Z,5.000,partial,ckua",
          "ckua,C1001,Hardware Co,Spring Sale,2026-01-20T13:00:00.000Z,2026-01-20T13:01:00.000Z,"
            + "2026-01-20T13:01:30.000Z,60.000,wrong-channel,fip",
          "ckua,AUTO0015000H,Auto Dealer,Car Deal,2026-01-20T14:00:00.000Z,,,,missed,",
          "ckua,C1001,Hardware Co,Spring Sale 30s,,2026-01-20T15:00:00.000Z,2026-01-20T15:00:30.000Z,,unscheduled,ckua"
        ))

    // A wider tolerance makes the late and early spots aired.
    let wide = try fixture.csv {
      try ReconcileReport(scope: scope, toleranceSeconds: 300).write(from: $0, to: $1)
    }
    #expect(try StrictCSVParser.parse(wide).dropFirst().map { $0[8] }.prefix(3) == ["aired", "aired", "aired"])

    // A tolerance wider than the match window is the window: every spot on its channel is aired. A negative or NaN
    // one is none.
    let statuses = { (toleranceSeconds: Double) in
      try StrictCSVParser.parse(
        try fixture.csv {
          try ReconcileReport(scope: scope, toleranceSeconds: toleranceSeconds).write(from: $0, to: $1)
        }
      ).dropFirst().map { $0[8] }
    }
    for widest in [3600, 1e90, .infinity] {
      #expect(try statuses(widest).prefix(3) == ["aired", "aired", "aired"], "\(widest)")
    }
    for none in [-1, .nan] {
      #expect(try statuses(none).prefix(3) == ["aired-late", "aired-late", "aired-early"], "\(none)")
    }
  }

  @Test("A report's verdicts near its edges are those of a longer report: spots just outside its span are matched too")
  func edgesOfTheSpan() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T23:59:50Z", seconds: 30),
      .init(channel: "ckua", item: "sale", start: "2026-01-21T00:01:50Z", seconds: 30),
    ])
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let spots = ["2026-01-20T23:59:40Z", "2026-01-21T00:00:40Z"].map {
      ScheduledSpot(
        channel: "ckua", scheduledAtMilliseconds: ISO8601Millis.parseMillisecondsSince1970($0)!, cart: "C1001",
        advertiser: "Hardware Co", title: "Spring Sale", lengthMilliseconds: 30_000)
    }
    #expect(try store.importSchedule(spots) == 2)
    try store.close()
    func rows(from: String? = nil, to: String? = nil) throws -> [[String]] {
      let scope = ReportScope(
        from: from.map { ReportBound($0)! }, to: to.map { ReportBound($0)! }, timeZoneOverride: .utc)
      let text = try fixture.csv { try ReconcileReport(scope: scope).write(from: $0, to: $1) }
      return try StrictCSVParser.parse(text).dropFirst().map { [$0[4], $0[5], $0[8]] }
    }
    let whole = try rows()
    #expect(
      whole == [
        ["2026-01-20T23:59:40.000Z", "2026-01-20T23:59:50.000Z", "aired"],
        ["2026-01-21T00:00:40.000Z", "2026-01-21T00:01:50.000Z", "aired-late"],
      ], "\(whole)")
    // Each day's report gives its own spot the verdict of the whole; neither lists the other's airing as unscheduled.
    #expect(try rows(from: "2026-01-20", to: "2026-01-21") == [whole[0]])
    #expect(try rows(from: "2026-01-21", to: "2026-01-22") == [whole[1]])
  }

  /// The spot of `unheardSpots` and `spotAfterHeartbeat` (ckua's 30 s "Spring Sale"), scheduled at each of `times`.
  static func springSale(at times: [String]) -> [ScheduledSpot] {
    times.map {
      ScheduledSpot(
        channel: "ckua", scheduledAtMilliseconds: ISO8601Millis.parseMillisecondsSince1970($0)!, cart: "C1001",
        advertiser: "Hardware Co", title: "Spring Sale", lengthMilliseconds: 30_000)
    }
  }

  /// Each spot's scheduled time and status in `fixture`'s reconcile report, in UTC.
  static func statuses(_ fixture: ReportFixture) throws -> [[String]] {
    let text = try fixture.csv {
      try ReconcileReport(scope: ReportScope(timeZoneOverride: .utc)).write(from: $0, to: $1)
    }
    return try StrictCSVParser.parse(text).dropFirst().map { [$0[4], $0[8]] }
  }

  @Test("A spot not found while its channel was not heard is unmonitored; one heard and not found is missed")
  func unheardSpots() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T09:00:00Z", seconds: 30)
    ])
    defer { fixture.remove() }
    func ms(_ time: String) -> Int64 { ISO8601Millis.parseMillisecondsSince1970(time)! }
    func date(_ time: String) -> Date { Date(millisecondsSince1970: ms(time)) }
    let store = try PlayLogStore(path: fixture.path)
    let spots = Self.springSale(at: [
      "2026-01-20T09:00:00Z", "2026-01-20T12:00:00Z", "2026-01-20T14:00:00Z", "2026-01-20T16:00:00Z",
      "2026-01-20T17:59:30Z", "2026-01-20T20:00:00Z",
    ])
    #expect(try store.importSchedule(spots) == 6)
    // A gap with its end; one written without (ended by its reconnect); one that ends 40 s before a spot (heard
    // again within the tolerance); one that never ended. Another channel's gap and a restart do not count for ckua.
    try store.recordEvent(
      channel: "ckua", kind: .gap, start: date("2026-01-20T13:58:00Z"), end: date("2026-01-20T14:00:10Z"),
      detail: "refused")
    try store.recordEvent(channel: "ckua", kind: .gap, start: date("2026-01-20T15:50:00Z"), detail: "old gap")
    try store.recordEvent(
      channel: "ckua", kind: .reconnect, start: date("2026-01-20T16:05:00Z"), end: date("2026-01-20T16:05:00Z"),
      detail: "back")
    try store.recordEvent(
      channel: "ckua", kind: .gap, start: date("2026-01-20T17:00:00Z"), end: date("2026-01-20T17:58:50Z"),
      detail: "refused")
    try store.recordEvent(channel: "fip", kind: .gap, start: date("2026-01-20T11:00:00Z"), detail: "fip down")
    try store.recordEvent(channel: "ckua", kind: .gap, start: date("2026-01-20T19:30:00Z"), detail: "still down")
    try store.close()
    let statuses = try Self.statuses(fixture)
    #expect(
      statuses == [
        ["2026-01-20T09:00:00.000Z", "aired"],
        ["2026-01-20T12:00:00.000Z", "missed"],
        ["2026-01-20T14:00:00.000Z", "unmonitored"],
        ["2026-01-20T16:00:00.000Z", "unmonitored"],
        ["2026-01-20T17:59:30.000Z", "unmonitored"],
        ["2026-01-20T20:00:00.000Z", "unmonitored"],
      ], "\(statuses)")
    // Within a tolerance of 0 s, the spot at 17:59:30 was heard: missed.
    let strict = try fixture.csv {
      try ReconcileReport(scope: ReportScope(timeZoneOverride: .utc), toleranceSeconds: 0).write(from: $0, to: $1)
    }
    #expect(try StrictCSVParser.parse(strict)[5][8] == "missed")
  }

  @Test("A spot after its channel's heartbeat, of a monitor killed and not started again, is unmonitored")
  func spotAfterHeartbeat() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T09:00:00Z", seconds: 30)
    ])
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let spots = Self.springSale(at: ["2026-01-20T09:00:00Z", "2026-01-20T10:00:00Z", "2026-01-20T12:00:00Z"])
    #expect(try store.importSchedule(spots) == 3)
    try store.recordHeartbeat([
      ChannelHeartbeat(channel: "ckua", heardThrough: ISO8601Millis.parse("2026-01-20T11:00:00Z")!)
    ])
    try store.close()
    let statuses = try Self.statuses(fixture)
    #expect(
      statuses == [
        ["2026-01-20T09:00:00.000Z", "aired"],
        ["2026-01-20T10:00:00.000Z", "missed"],
        ["2026-01-20T12:00:00.000Z", "unmonitored"],
      ], "\(statuses)")
  }

  @Test("A spot whose time, length and tolerance are not past when the report is made is pending, not missed")
  func spotsNotDueYet() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T09:00:00Z", seconds: 30)
    ])
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let spots = Self.springSale(at: [
      "2026-01-20T09:00:00Z", "2026-01-20T10:00:00Z", "2026-01-20T10:58:00Z", "2026-01-20T10:59:45Z",
      "2026-01-20T12:00:00Z",
    ])
    #expect(try store.importSchedule(spots) == 5)
    // The running monitor has heard ckua up to 11:00:00; the report is made at 11:00:30.
    try store.recordHeartbeat([
      ChannelHeartbeat(channel: "ckua", heardThrough: ISO8601Millis.parse("2026-01-20T11:00:00Z")!)
    ])
    try store.close()
    func statuses(now: String) throws -> [String] {
      let text = try fixture.csv {
        try ReconcileReport(scope: ReportScope(timeZoneOverride: .utc), now: ISO8601Millis.parse(now)!)
          .write(from: $0, to: $1)
      }
      return try StrictCSVParser.parse(text).dropFirst().map { $0[8] }
    }
    // 10:58:00 ends with its tolerance at 10:59:30, heard: missed. 10:59:45 may still air until 11:01:15, and 12:00
    // lies ahead.
    #expect(try statuses(now: "2026-01-20T11:00:30Z") == ["aired", "missed", "missed", "pending", "pending"])
    // The same play log read later, the monitor killed after its heartbeat: what was pending is unmonitored.
    #expect(
      try statuses(now: "2026-01-20T13:00:00Z") == ["aired", "missed", "missed", "unmonitored", "unmonitored"])
  }

  @Test("A play log written before heartbeats existed (009), read unmigrated as reports read it, reconciles")
  func playLogBeforeHeartbeats() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      do {
        let database = try SQLiteDatabase(path: path)
        let before = Migrations.playLog.list.prefix { $0.id != "010_heartbeats" }
        try Migrations(Array(before)).apply(to: database)
        try database.run("INSERT INTO channels(name) VALUES('ckua')")
        try database.run(
          "INSERT INTO schedule(channel_id, scheduled_at_ms, cart, advertiser, title, length_ms) "
            + "VALUES(1, \(ISO8601Millis.parseMillisecondsSince1970("2026-01-20T09:00:00Z")!), 'C1', 'Co', 'Spot', 30000)"
        )
        try database.close()
      }
      let writer = CSVWriter()
      try ReconcileReport(scope: ReportScope(timeZoneOverride: .utc)).write(
        from: try PlayLogReader(path: path), to: writer)
      let rows = try StrictCSVParser.parse(writer.text).dropFirst().map { [$0[0], $0[4], $0[8]] }
      #expect(rows == [["ckua", "2026-01-20T09:00:00.000Z", "missed"]], "\(writer.text)")
    }
  }

  @Test("A play log written before schedules existed says how to import one")
  func noSchedule() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      do {
        let database = try SQLiteDatabase(path: path)
        try Migrations(Array(Migrations.playLog.list.prefix(2))).apply(to: database)
        try database.close()
      }
      let reader = try PlayLogReader(path: path)
      let error = #expect(throws: ReportError.self) {
        try ReconcileReport(scope: ReportScope()).write(from: reader, to: CSVWriter())
      }
      #expect(error == .noSchedule(path: path))
      #expect(error?.description.contains("schedule import --db \(path) traffic.csv") == true)
    }
  }
}
