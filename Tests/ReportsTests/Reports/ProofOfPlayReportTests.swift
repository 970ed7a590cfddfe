import Foundation
import Testing

@testable import Reports

@Suite("ProofOfPlayReport")
struct ProofOfPlayReportTests {
  @Test("Every airing of an ad, by advertiser then air time, with its cart or ISCI; a cut spot is partial")
  func ads() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T14:00:00Z", seconds: 30),
      .init(channel: "ckua", item: "car", start: "2026-01-20T14:00:30Z", seconds: 12.25),
      .init(channel: "ckua", item: "north", start: "2026-01-20T14:01:00Z", seconds: 180),
      .init(channel: "fip", item: "sale", start: "2026-01-20T13:00:00Z", seconds: 30),
      .init(channel: "ckua", item: "car", start: "2026-01-20T18:00:00Z", seconds: 15, status: .open),
    ])
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["ckua": .toronto, "fip": .paris])
    let text = try fixture.csv { try ProofOfPlayReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          "advertiser,channel,start,end,duration_s,item_duration_s,title,artist,item_key,cart,status,clip,clip_missing_s",
          "Auto Dealer,ckua,2026-01-20T09:00:30.000-05:00,2026-01-20T09:00:42.250-05:00,12.250,15.000,Car Deal,,"
            + "cat:car,AUTO0015000H,partial,,",
          "Auto Dealer,ckua,2026-01-20T13:00:00.000-05:00,2026-01-20T13:00:15.000-05:00,15.000,15.000,Car Deal,,"
            + "cat:car,AUTO0015000H,open,,",
          "Hardware Co,fip,2026-01-20T14:00:00.000+01:00,2026-01-20T14:00:30.000+01:00,30.000,30.000,"
            + "Spring Sale 30s,,cat:sale,C1001,closed,,",
          "Hardware Co,ckua,2026-01-20T09:00:00.000-05:00,2026-01-20T09:00:30.000-05:00,30.000,30.000,"
            + "Spring Sale 30s,,cat:sale,C1001,closed,,"))
    let jingles = try fixture.csv { try ProofOfPlayReport(scope: scope, kind: .jingle).write(from: $0, to: $1) }
    #expect(try StrictCSVParser.parse(jingles).count == 1)
  }

  @Test("An airing's clip is listed with it, with the seconds of its start that the clip lacks")
  func clips() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "sale", start: "2026-01-20T14:00:00Z", seconds: 30),
      .init(channel: "ckua", item: "car", start: "2026-01-20T14:00:30Z", seconds: 15),
      .init(channel: "ckua", item: "sale", start: "2026-01-20T15:00:00Z", seconds: 30),
      .init(channel: "fip", item: "sale", start: "2026-01-20T14:00:00Z", seconds: 30),
    ])
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    func time(_ text: String) -> Date { ISO8601Millis.parse(text)! }
    // The first spot whole; the second held from 2.5 s in; a clip of another item at the third's time is not its.
    try store.record(
      PlayClipRecord(
        channel: "ckua", itemKey: "cat:sale", playStart: time("2026-01-20T14:00:00Z"),
        playEnd: time("2026-01-20T14:00:30Z"), clipStart: time("2026-01-20T14:00:00Z"),
        clipEnd: time("2026-01-20T14:00:30Z"), clipPath: "clips/ckua_14_ad.opus"))
    try store.record(
      PlayClipRecord(
        channel: "ckua", itemKey: "cat:car", playStart: time("2026-01-20T14:00:30Z"),
        playEnd: time("2026-01-20T14:00:45Z"), clipStart: time("2026-01-20T14:00:32.500Z"),
        clipEnd: time("2026-01-20T14:00:45Z"), clipPath: "clips/ckua_1430_ad.opus"))
    try store.record(
      PlayClipRecord(
        channel: "ckua", itemKey: "cat:car", playStart: time("2026-01-20T15:00:00Z"),
        playEnd: time("2026-01-20T15:00:30Z"), clipStart: time("2026-01-20T15:00:00Z"),
        clipEnd: time("2026-01-20T15:00:30Z"), clipPath: "clips/other.opus"))
    try store.close()
    let scope = ReportScope(channelTimeZones: ["ckua": .toronto, "fip": .paris])
    let rows = try StrictCSVParser.parse(
      try fixture.csv { try ProofOfPlayReport(scope: scope).write(from: $0, to: $1) })
    let clips = rows.dropFirst().map { "\($0[1]) \($0[2]) \($0[11]) \($0[12])" }
    #expect(
      clips == [
        "ckua 2026-01-20T09:00:30.000-05:00 clips/ckua_1430_ad.opus 2.500",
        "ckua 2026-01-20T09:00:00.000-05:00 clips/ckua_14_ad.opus 0.000",
        "fip 2026-01-20T15:00:00.000+01:00  ",
        "ckua 2026-01-20T10:00:00.000-05:00  ",
      ])
  }
}
