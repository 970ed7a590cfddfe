import Foundation
import Testing

@testable import Reports

@Suite("PlayRecord")
struct PlayRecordTests {
  @Test("The duration is the time from start to end, in seconds")
  func durationIsEndMinusStart() {
    let play = PlayRecord(
      channel: "CKUA", itemKey: "k", title: "t", start: Date(timeIntervalSince1970: 100),
      end: Date(timeIntervalSince1970: 282.5), confidence: 1, detectedAt: Date(timeIntervalSince1970: 107),
      status: .open)
    #expect(play.durationSeconds == 182.5)
    #expect(play.id == nil)
    #expect(play.metadata.kind == .song)
    #expect(play.speed == 1)
  }
}
