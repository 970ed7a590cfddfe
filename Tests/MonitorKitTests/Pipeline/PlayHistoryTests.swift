import Foundation
import Reports
import Testing

@testable import MonitorKit

@Suite("PlayHistory")
struct PlayHistoryTests {
  static let origin = Date(timeIntervalSince1970: 1_772_366_400)

  /// A play of `key` on fm that starts `start` seconds after the origin, `refOffset` seconds into a 200 s item.
  static func play(_ key: String = "song", start: Double, end: Double? = nil, refOffset: Double) -> PlayRecord {
    PlayRecord(
      channel: "fm", itemKey: key, title: key.capitalized, itemDurationSeconds: 200,
      start: origin + start, end: origin + (end ?? start), refOffsetSeconds: refOffset, confidence: 0.5,
      detectedAt: origin + start + 3, status: .open)
  }

  /// A history with one play of "song" from 10 s to 70 s at 0 s into the item, ended.
  static func oneEndedPlay() -> PlayHistory {
    let history = PlayHistory()
    history.started(id: 1, play(start: 10, refOffset: 0))
    history.logged(id: 1, start: origin + 10, end: origin + 70, refOffsetSeconds: 0, speed: 1)
    return history
  }

  @Test("the rest of an airing after a gap takes over its entry: counted once, the first part's start, on air")
  func restOfAiringIsOnePlay() {
    let history = Self.oneEndedPlay()
    history.started(id: 2, Self.play(start: 80, refOffset: 70.5))  // 10 s later, 0.5 s off the line
    #expect(history.startedCount == 1)
    #expect(history.recent.map(\.id) == [2])
    #expect(history.recent.first?.start == Self.origin + 10)
    #expect(history.recent.first?.end == nil)
    history.logged(id: 2, start: Self.origin + 79, end: Self.origin + 120, refOffsetSeconds: 69.5, speed: 1)
    #expect(history.recent.first?.start == Self.origin + 10, "the continued play keeps its start, as its row does")
    #expect(history.recent.first?.end == Self.origin + 120)
  }

  @Test("a play on another line, of another item or after the play log's gap limit is a play of its own")
  func otherPlaysCount() {
    let cases: [(String, PlayRecord)] = [
      ("another line", Self.play(start: 80, refOffset: 60)),
      ("another item", Self.play("jingle", start: 80, refOffset: 70)),
      ("a second airing", Self.play(start: 300, refOffset: 0)),
      (
        "after the gap limit",
        Self.play(start: 71 + PlayLogStore.restartGapSeconds, refOffset: 61 + PlayLogStore.restartGapSeconds)
      ),
    ]
    for (name, later) in cases {
      let history = Self.oneEndedPlay()
      history.started(id: 2, later)
      #expect(history.startedCount == 2, "\(name)")
      #expect(history.recent.map(\.id) == [1, 2], "\(name)")
    }
  }

  @Test("a play still on air is not continued: a second play on its line is counted")
  func runningPlayIsNotContinued() {
    let history = PlayHistory()
    history.started(id: 1, Self.play(start: 10, refOffset: 0))
    history.started(id: 2, Self.play(start: 20, refOffset: 10))
    #expect(history.startedCount == 2)
  }

  @Test("a withdrawn continuation leaves the earlier play listed with its end; a withdrawn play leaves the list")
  func withdrawals() {
    let history = Self.oneEndedPlay()
    history.started(id: 2, Self.play(start: 80, refOffset: 70))
    history.withdrawn(id: 2)
    #expect(history.recent.map(\.id) == [2])
    #expect(history.recent.first?.end == Self.origin + 70)
    history.started(id: 3, Self.play("jingle", start: 90, refOffset: 0))
    history.withdrawn(id: 3)
    #expect(history.recent.map(\.id) == [2])
    #expect(history.startedCount == 2)
  }

  @Test("a history continued by a reload's new pipeline continues the earlier plays too")
  func continuedHistoryKeepsLines() {
    let reloaded = PlayHistory()
    reloaded.continuing(Self.oneEndedPlay())
    reloaded.started(id: 2, Self.play(start: 80, refOffset: 70))
    #expect(reloaded.startedCount == 1)
    #expect(reloaded.recent.map(\.id) == [2])
  }

  @Test(
    "a play an update moves onto the line of an earlier play of its airing takes over that play's entry, as the writer folds its row; it stays counted"
  )
  func updateMovesPlayOntoEarlierLine() {
    let history = Self.oneEndedPlay()
    history.started(id: 2, Self.play(start: 80, refOffset: 30))  // first found on a repeated section: another line
    #expect(history.startedCount == 2 && history.recent.map(\.id) == [1, 2])
    history.logged(id: 2, start: Self.origin + 80, end: nil, refOffsetSeconds: 30.1, speed: 1)  // a refinement
    #expect(history.recent.map(\.id) == [1, 2], "a line refined by milliseconds is not moved")
    history.logged(id: 2, start: Self.origin + 80, end: nil, refOffsetSeconds: 70.2, speed: 1)  // the true line
    #expect(history.recent.map(\.id) == [2], "one airing, one entry")
    #expect(history.recent.first?.start == Self.origin + 10 && history.recent.first?.end == nil)
    #expect(history.startedCount == 2, "the counter does not go down")
    history.logged(id: 2, start: Self.origin + 80, end: Self.origin + 150, refOffsetSeconds: 70.2, speed: 1)
    #expect(history.recent.first?.start == Self.origin + 10 && history.recent.first?.end == Self.origin + 150)
    history.withdrawn(id: 2)
    #expect(history.recent.first?.end == Self.origin + 70, "withdrawn, the earlier play keeps its own end")

    let apart = Self.oneEndedPlay()
    apart.started(id: 2, Self.play(start: 80, refOffset: 30))
    apart.logged(id: 2, start: Self.origin + 80, end: nil, refOffsetSeconds: 120, speed: 1)  // a line of its own
    #expect(apart.recent.map(\.id) == [1, 2])
  }
}
