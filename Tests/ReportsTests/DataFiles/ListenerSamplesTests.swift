import Foundation
import Testing

@testable import Reports

@Suite("ListenerSamples")
struct ListenerSamplesTests {
  /// Minutes after 2026-02-01T12:00:00Z in milliseconds.
  static func minute(_ value: Double) -> Int64 { 1_769_947_200_000 + Int64(value * 60_000) }

  @Test("A play's performances: the most listeners in force during it, the count at its start included")
  func mostInForce() {
    let samples = ListenerSamples(
      [(Self.minute(0), 10), (Self.minute(2), 14), (Self.minute(3), 12), (Self.minute(30), 3)], source: "test")
    // 12:01-12:04: 10 in force at the start, 14 and 12 sampled during it.
    #expect(samples.performances(startMilliseconds: Self.minute(1), endMilliseconds: Self.minute(4)) == 14)
    // A play that starts on a sample takes that sample; one that ends on a sample does not take it.
    #expect(samples.performances(startMilliseconds: Self.minute(3), endMilliseconds: Self.minute(5)) == 12)
    #expect(samples.performances(startMilliseconds: Self.minute(1), endMilliseconds: Self.minute(2)) == 10)
    // 12:20: 12 has been in force for 17 min, past the rewrite interval and its margin: not in force any more.
    #expect(
      Double(Self.minute(20) - Self.minute(3)) > Double(ListenerSamples.validMilliseconds)
        && samples.performances(startMilliseconds: Self.minute(20), endMilliseconds: Self.minute(22)) == nil)
    // A play the stale count covers but a sample falls in gets that sample.
    #expect(samples.performances(startMilliseconds: Self.minute(29), endMilliseconds: Self.minute(33)) == 3)
    // Before the first sample: not covered.
    #expect(samples.performances(startMilliseconds: Self.minute(-5), endMilliseconds: Self.minute(-1)) == nil)
  }

  @Test("Samples written to the play log are read back per channel, with the one in force before the span")
  func playLogRoundTrip() throws {
    let fixture = try ReportFixture([.init(channel: "web", item: "north", start: "2026-02-01T12:01:00Z", seconds: 180)])
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    for (minute, listeners) in [(0.0, 10), (2.0, 14), (10.0, 4)] {
      try store.recordListeners(
        channel: "web", sampledAt: Date(timeIntervalSince1970: Double(Self.minute(minute)) / 1000),
        listeners: listeners)
    }
    // Written again (a replay from the spool): still one row.
    try store.recordListeners(
      channel: "web", sampledAt: Date(timeIntervalSince1970: Double(Self.minute(2)) / 1000), listeners: 14)
    #expect(throws: PlayLogError.self) {
      try store.recordListeners(channel: "web", sampledAt: Date(), listeners: -1)
    }
    try store.close()

    let reader = try PlayLogReader(path: fixture.path)
    let channel = try #require(try ReportScope(timeZoneOverride: .utc).channels(in: reader).first)
    let samples = try reader.listenerSamples(
      channelID: channel.id, fromMilliseconds: Self.minute(1), toMilliseconds: Self.minute(10))
    #expect(samples.map(\.sampledAtMilliseconds) == [Self.minute(0), Self.minute(2)])
    #expect(samples.map(\.listeners) == [10, 14])

    let report = SoundExchangeReport(
      scope: ReportScope(timeZoneOverride: .utc), serviceName: "WEB", transmissionCategory: "C",
      audiencePerPlay: nil, audience: ["web": ListenerSamples(samples, source: "samples")])
    let writer = CSVWriter()
    let summary = try report.write(from: reader, to: writer)
    #expect(summary.actualPerformances && summary.sources["web"] == "samples")
    #expect(try StrictCSVParser.parse(writer.text).dropFirst().map { [$0[3], $0[7]] } == [["Northern Lights", "14"]])
  }
}
