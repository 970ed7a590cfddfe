import Foundation
import Testing

@testable import MonitorKit

@Suite("The channels document")
struct ChannelsDocumentTests {
  @Test("A channel's open alerts are listed with their kind, since when and detail; a channel without any has none")
  func alertsListed() throws {
    let text = ChannelsDocument.make(FixedReadings(), now: Date(timeIntervalSince1970: 1_796_000_100)).text
    let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let channels = try #require(document["channels"] as? [[String: Any]])
    #expect(channels.count == 2)
    #expect((channels[0]["alerts"] as? [Any])?.isEmpty == true, "\(text)")
    let alerts = try #require(channels[1]["alerts"] as? [[String: String]], "\(text)")
    #expect(
      alerts == [["kind": "silence", "since": "2026-11-30T00:53:00.000Z", "detail": "below -50 dBFS for 15 s"]])
  }
}
