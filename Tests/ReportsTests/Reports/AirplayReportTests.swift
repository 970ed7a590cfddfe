import Foundation
import Testing

@testable import Reports

@Suite("AirplayReport")
struct AirplayReportTests {
  /// Toronto around the spring-forward night (Sunday 2026-03-08, 02:00 EST → 03:00 EDT) and one Paris play.
  static func fixture() throws -> ReportFixture {
    try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-03-07T23:00:00Z", seconds: 180),  // Sat 18:00 -05:00
      .init(channel: "ckua", item: "north", start: "2026-03-08T06:59:00Z", seconds: 180),  // Sun 01:59 -05:00
      .init(channel: "ckua", item: "hit", start: "2026-03-08T07:00:00Z", seconds: 200),  // Sun 03:00 -04:00
      .init(channel: "ckua", item: "north", start: "2026-03-09T03:30:00Z", seconds: 181.5),  // Sun 23:30 -04:00
      .init(channel: "ckua", item: "hit", start: "2026-03-09T04:00:00Z", seconds: 200),  // Mon 00:00 -04:00
      .init(channel: "fip", item: "north", start: "2026-03-08T10:00:00Z", seconds: 100),
    ])
  }

  static let header = "title,artist,album,isrc,label,kind,item_key,plays,total_s,first_aired,last_aired"

  @Test("Per item over the whole span: plays, seconds aired, first and last air time, most played first")
  func perItem() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(channelName: "ckua", channelTimeZones: ["ckua": .toronto])
    let text = try fixture.csv { try AirplayReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          Self.header,
          "Northern Lights,Aurora Band,Borealis,CAAAA2600001,Maple Music,song,cat:north,3,541.500,"
            + "2026-03-07T18:00:00.000-05:00,2026-03-08T23:30:00.000-04:00",
          "Summer Hit,Global Star,Hits,USBBB2600002,Big Label,song,cat:hit,2,400.000,"
            + "2026-03-08T03:00:00.000-04:00,2026-03-09T00:00:00.000-04:00"))
  }

  @Test("Grouped by local day across the spring-forward night: the 23-hour Sunday holds the plays it starts")
  func groupedByDay() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(channelName: "ckua", channelTimeZones: ["ckua": .toronto])
    let text = try fixture.csv { try AirplayReport(scope: scope, grouping: .day).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          "period_start,period_end," + Self.header,
          "2026-03-07T00:00:00.000-05:00,2026-03-08T00:00:00.000-05:00,Northern Lights,Aurora Band,Borealis,"
            + "CAAAA2600001,Maple Music,song,cat:north,1,180.000,2026-03-07T18:00:00.000-05:00,"
            + "2026-03-07T18:00:00.000-05:00",
          "2026-03-08T00:00:00.000-05:00,2026-03-09T00:00:00.000-04:00,Northern Lights,Aurora Band,Borealis,"
            + "CAAAA2600001,Maple Music,song,cat:north,2,361.500,2026-03-08T01:59:00.000-05:00,"
            + "2026-03-08T23:30:00.000-04:00",
          "2026-03-08T00:00:00.000-05:00,2026-03-09T00:00:00.000-04:00,Summer Hit,Global Star,Hits,USBBB2600002,"
            + "Big Label,song,cat:hit,1,200.000,2026-03-08T03:00:00.000-04:00,2026-03-08T03:00:00.000-04:00",
          "2026-03-09T00:00:00.000-04:00,2026-03-10T00:00:00.000-04:00,Summer Hit,Global Star,Hits,USBBB2600002,"
            + "Big Label,song,cat:hit,1,200.000,2026-03-09T00:00:00.000-04:00,2026-03-09T00:00:00.000-04:00"))
  }

  @Test("By channel and week (from Monday), each channel on its own calendar")
  func byChannelAndWeek() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["ckua": .toronto, "fip": .paris])
    let text = try fixture.csv {
      try AirplayReport(scope: scope, byChannel: true, grouping: .week).write(from: $0, to: $1)
    }
    let rows = try StrictCSVParser.parse(text)
    #expect(rows[0] == ["period_start", "period_end", "channel"] + Self.header.split(separator: ",").map(String.init))
    #expect(
      rows.dropFirst().map { [$0[0], $0[1], $0[2], $0[3], $0[10]] } == [
        ["2026-03-02T00:00:00.000-05:00", "2026-03-09T00:00:00.000-04:00", "ckua", "Northern Lights", "3"],
        ["2026-03-02T00:00:00.000-05:00", "2026-03-09T00:00:00.000-04:00", "ckua", "Summer Hit", "1"],
        ["2026-03-09T00:00:00.000-04:00", "2026-03-16T00:00:00.000-04:00", "ckua", "Summer Hit", "1"],
        ["2026-03-02T00:00:00.000+01:00", "2026-03-09T00:00:00.000+01:00", "fip", "Northern Lights", "1"],
      ])
  }

  @Test("Channels in different time zones cannot share local periods: the error says what to pass")
  func mixedZones() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["ckua": .toronto, "fip": .paris])
    #expect(throws: ReportError.mixedTimeZones(["ckua": "America/Toronto", "fip": "Europe/Paris"])) {
      _ = try fixture.csv { try AirplayReport(scope: scope, grouping: .day).write(from: $0, to: $1) }
    }
    var utc = scope
    utc.timeZoneOverride = .utc
    let text = try fixture.csv { try AirplayReport(scope: utc).write(from: $0, to: $1) }
    #expect(
      try StrictCSVParser.parse(text).dropFirst().map { [$0[0], $0[7]] } == [
        ["Northern Lights", "4"], ["Summer Hit", "2"],
      ])
  }
}
