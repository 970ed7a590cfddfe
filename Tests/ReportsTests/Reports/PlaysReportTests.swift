import Foundation
import Testing

@testable import Reports

@Suite("PlaysReport")
struct PlaysReportTests {
  static let header =
    "channel,start,end,duration_s,title,artist,album,isrc,label,kind,ref_offset_s,speed,confidence,detected_at,status"

  /// Toronto plays around local midnight of 2026-01-15 (EST, -05:00) and one Paris play at the same instant.
  static func fixture() throws -> ReportFixture {
    try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-01-15T05:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "hit", start: "2026-01-16T04:58:00Z", seconds: 270),
      .init(channel: "fip", item: "mer", start: "2026-01-16T04:58:00Z", seconds: 150, status: .recovered),
      .init(channel: "ckua", item: "sale", start: "2026-01-16T05:00:00Z", seconds: 30, status: .open),
      .init(channel: "ckua", item: "north", start: "2026-01-14T12:00:00Z", seconds: 180),
    ])
  }

  static let scope = ReportScope(channelTimeZones: ["ckua": .toronto, "fip": .paris], defaultTimeZone: .utc)

  @Test("One row per play in air order, the scan --csv columns then status, in each station's local time")
  func allChannels() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let text = try fixture.csv { try PlaysReport(scope: Self.scope).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          Self.header,
          "ckua,2026-01-14T07:00:00.000-05:00,2026-01-14T07:03:00.000-05:00,180.000,Northern Lights,Aurora Band,"
            + "Borealis,CAAAA2600001,Maple Music,song,0.000,1.0000,0.900,2026-01-14T07:00:07.000-05:00,closed",
          "ckua,2026-01-15T00:00:00.000-05:00,2026-01-15T00:03:00.000-05:00,180.000,Northern Lights,Aurora Band,"
            + "Borealis,CAAAA2600001,Maple Music,song,0.000,1.0000,0.900,2026-01-15T00:00:07.000-05:00,closed",
          "ckua,2026-01-15T23:58:00.000-05:00,2026-01-16T00:02:30.000-05:00,270.000,Summer Hit,Global Star,Hits,"
            + "USBBB2600002,Big Label,song,0.000,1.0000,0.900,2026-01-15T23:58:07.000-05:00,closed",
          "fip,2026-01-16T05:58:00.000+01:00,2026-01-16T06:00:30.000+01:00,150.000,La Mer,Chanteuse,Océans,"
            + "FRCCC2600003,Label Bleu,song,0.000,1.0000,0.900,2026-01-16T05:58:07.000+01:00,recovered",
          "ckua,2026-01-16T00:00:00.000-05:00,2026-01-16T00:00:30.000-05:00,30.000,Spring Sale 30s,,,,,ad,0.000,"
            + "1.0000,0.900,2026-01-16T00:00:07.000-05:00,open"))
  }

  @Test("A local day is half-open: a play across midnight belongs to the day it starts, one at midnight to the next")
  func localDay() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.channelName = "ckua"
    scope.from = ReportBound("2026-01-15")
    scope.to = ReportBound("2026-01-16")
    let text = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    let starts = try StrictCSVParser.parse(text).dropFirst().map { $0[1] }
    #expect(starts == ["2026-01-15T00:00:00.000-05:00", "2026-01-15T23:58:00.000-05:00"])
  }

  @Test("Under --tz UTC the times end in Z, as scan --csv writes them")
  func utc() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.timeZoneOverride = .utc
    scope.channelName = "fip"
    let text = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          Self.header,
          "fip,2026-01-16T04:58:00.000Z,2026-01-16T05:00:30.000Z,150.000,La Mer,Chanteuse,Océans,FRCCC2600003,"
            + "Label Bleu,song,0.000,1.0000,0.900,2026-01-16T04:58:07.000Z,recovered"))
  }

  @Test("Under UTC every row is exactly what PlayCSVFormat (the scan --csv columns) writes, then the status")
  func sameAsScanCSV() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.timeZoneOverride = .utc
    let text = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    let writer = CSVWriter()
    let format = PlayCSVFormat(extraColumns: [.status])
    try writer.writeHeader(format.header)
    for play in try PlayLogStore(path: fixture.path).plays() { try writer.writeRow(format.row(play)) }
    #expect(text == writer.text)
  }

  @Test("A span turned round is refused on a play log without plays too, not answered with an empty table")
  func emptySpanWithoutPlays() throws {
    let fixture = try ReportFixture([])
    defer { fixture.remove() }
    var scope = Self.scope
    scope.from = ReportBound("2026-01-16")
    scope.to = ReportBound("2026-01-15")
    #expect(throws: ReportError.emptySpan(from: scope.from!, to: scope.to!)) {
      _ = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    }
    scope.to = ReportBound("2026-01-17")
    let table = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    #expect(table.split(whereSeparator: \.isNewline) == [Substring(Self.header)], "the header alone: \(table)")
  }

  @Test("An unknown channel is an error that lists the channels the log has")
  func unknownChannel() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.channelName = "cbc"
    #expect(throws: ReportError.noSuchChannel("cbc", known: ["ckua", "fip"], path: fixture.path)) {
      _ = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    }
  }
}
