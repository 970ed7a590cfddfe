import Foundation
import Testing

@testable import Reports

@Suite("PlayLogStore recovery and retraction")
struct PlayLogStoreRecoveryTests {
  static func play(_ title: String, start: Int64, status: PlayStatus) -> PlayRecord {
    PlayLogStoreTests.play(itemKey: "key-\(title)", title: title, start: start, status: status)
  }

  @Test("A play already recorded is found by channel, item, start and detection time, so a retry never adds it twice")
  func recordedPlayIsFound() throws {
    let store = try PlayLogStore(path: ":memory:")
    let play = Self.play("one", start: 1_000, status: .open)
    #expect(try store.recordedPlayID(matching: play) == nil)
    let id = try store.record(play)
    #expect(try store.recordedPlayID(matching: play) == id)
    var later = play
    later.start = PlayLogStoreTests.time(1_001)
    #expect(try store.recordedPlayID(matching: later) == nil)
    var elsewhere = play
    elsewhere.channel = "other"
    #expect(try store.recordedPlayID(matching: elsewhere) == nil)
  }

  @Test("Plays a stopped monitor left open are marked recovered, keeping their last confirmed end")
  func recoverOpenPlays() throws {
    try StorageLocation.file.withPath { path in
      let ids: [Int64]
      do {
        let store = try PlayLogStore(path: path)
        let closed = try store.record(Self.play("closed", start: 0, status: .closed))
        let first = try store.record(Self.play("first", start: 200_000, status: .open))
        let second = try store.record(Self.play("second", start: 400_000, status: .open))
        try store.update(
          playID: second, end: PlayLogStoreTests.time(450_000), refOffsetSeconds: 0, speed: 1, confidence: 0.5,
          status: .open)
        ids = [closed, first, second]
      }  // the process "dies": the store goes away without closing the plays
      let reopened = try PlayLogStore(path: path)
      #expect(try reopened.recoverOpenPlays() == [ids[1], ids[2]])
      let plays = try reopened.plays()
      #expect(plays.map(\.status) == [.closed, .recovered, .recovered])
      #expect(plays[2].end == PlayLogStoreTests.time(450_000))
      #expect(try reopened.recoverOpenPlays() == [])
    }
  }

  @Test("A retracted play is removed and an unknown id is an error")
  func retract() throws {
    let store = try PlayLogStore(path: ":memory:")
    let kept = try store.record(Self.play("kept", start: 0, status: .closed))
    let withdrawn = try store.record(Self.play("withdrawn", start: 60_000, status: .open))
    try store.retract(playID: withdrawn)
    #expect(try store.plays().map(\.id) == [kept])
    #expect(throws: PlayLogError.noSuchPlay(id: withdrawn, path: ":memory:")) { try store.retract(playID: withdrawn) }
  }
}
