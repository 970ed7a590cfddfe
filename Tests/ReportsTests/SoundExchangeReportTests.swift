import Foundation
import Testing

@testable import Reports

@Suite("SoundExchangeReport")
struct SoundExchangeReportTests {
  static func fixture() throws -> ReportFixture {
    try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-02-01T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "hit", start: "2026-02-01T13:00:00Z", seconds: 200),
      .init(channel: "ckua", item: "north", start: "2026-02-02T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "sale", start: "2026-02-02T12:10:00Z", seconds: 30),
      .init(channel: "ckua2", item: "north", start: "2026-02-03T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "north", start: "2026-03-01T12:00:00Z", seconds: 180),
    ])
  }

  @Test("One row per sound recording in February, performances = plays × listeners per play; ads left out")
  func csv() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(
      from: ReportBound("2026-02-01"), to: ReportBound("2026-03-01"), channelTimeZones: ["ckua": .toronto])
    let report = SoundExchangeReport(
      scope: scope, serviceName: "CKUA Radio, Inc.", transmissionCategory: "B", audiencePerPlay: 1250.5)
    let text = try fixture.csv { try report.write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          "NAME_OF_SERVICE,TRANSMISSION_CATEGORY,FEATURED_ARTIST,SOUND_RECORDING_TITLE,ISRC,ALBUM_TITLE,"
            + "MARKETING_LABEL,ACTUAL_TOTAL_PERFORMANCES",
          "\"CKUA Radio, Inc.\",B,Aurora Band,Northern Lights,CAAAA2600001,Borealis,Maple Music,3752",
          "\"CKUA Radio, Inc.\",B,Global Star,Summer Hit,USBBB2600002,Hits,Big Label,1251"))
  }

  @Test("The pipe-delimited variant, with the play frequency when the audience is unknown")
  func pipe() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(channelName: "ckua", timeZoneOverride: .utc)
    let report = SoundExchangeReport(
      scope: scope, serviceName: "CKUA | Edmonton", transmissionCategory: "B", audiencePerPlay: nil)
    let reader = try PlayLogReader(path: fixture.path)
    let writer = PipeDelimitedWriter()
    try report.write(from: reader, to: writer)
    #expect(
      writer.text
        == crlf(
          "NAME_OF_SERVICE|TRANSMISSION_CATEGORY|FEATURED_ARTIST|SOUND_RECORDING_TITLE|ISRC|ALBUM_TITLE|"
            + "MARKETING_LABEL|PLAY_FREQUENCY",
          "CKUA   Edmonton|B|Aurora Band|Northern Lights|CAAAA2600001|Borealis|Maple Music|3",
          "CKUA   Edmonton|B|Global Star|Summer Hit|USBBB2600002|Hits|Big Label|1"))
  }
}
