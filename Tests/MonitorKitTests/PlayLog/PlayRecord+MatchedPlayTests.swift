import Common
import Foundation
import Reports
import Testing

@testable import Matcher
@testable import MonitorKit

@Suite("PlayRecord from a MatchedPlay")
struct PlayRecordMatchedPlayTests {
  @Test("Stream seconds become times from the origin; metadata, offset, speed and confidence are kept")
  func mapping() {
    let metadata = TrackMetadata(
      title: "T", artist: "A", album: "L", isrc: "ZZ1", label: "Lab", kind: .ad, attributes: ["k": "v"])
    let track = CatalogTrack(
      key: "key-1", sourcePath: "/x.ogg", metadata: metadata, durationSeconds: 30, audibleStartSeconds: 0,
      audibleEndSeconds: 30, loudEndSeconds: 30, globalStartFrame: 0, frameCount: 900, hashCount: 10, addedAt: Date())
    let play = MatchedPlay(
      id: 3, track: track, startSeconds: 12.5, endSeconds: 40.25, referenceOffsetSeconds: 1.5, speed: 1.04,
      pitchShifted: true, confidence: 0.8, detectedAtSeconds: 15, matchCount: 99)
    let origin = Date(timeIntervalSince1970: 1_767_225_600)
    let record = PlayRecord(play, channel: "fm", origin: origin, status: .open)
    #expect(record.start == origin.addingTimeInterval(12.5))
    #expect(record.end == origin.addingTimeInterval(40.25))
    #expect(record.detectedAt == origin.addingTimeInterval(15))
    #expect(record.channel == "fm" && record.itemKey == "key-1" && record.status == .open)
    #expect(
      record.metadata.title == "T" && record.metadata.artist == "A" && record.metadata.album == "L"
        && record.metadata.isrc == "ZZ1")
    #expect(record.metadata.label == "Lab" && record.metadata.kind == .ad && record.metadata.attributes == ["k": "v"])
    #expect(record.itemDurationSeconds == 30)
    #expect(record.refOffsetSeconds == 1.5 && record.speed == 1.04 && record.confidence == 0.8)
  }
}
