import Foundation
import TestSupport
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
    try store.update(
      playID: id, start: PlayLogStoreTests.time(900), end: later.end, refOffsetSeconds: 0, speed: 1, confidence: 1,
      status: .closed)
    #expect(try store.recordedPlayID(matching: play) == nil, "its start was refined")
    #expect(try store.recordedPlayID(matching: play, startMayHaveMoved: true) == id, "the detection time stays")
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

  /// A play of "song" on "fm" cut by a restart: open from `start` (ms) for 20 s, 5 s into the reference, then recovered.
  static func recoveredAiring(in store: PlayLogStore) throws -> (id: Int64, play: PlayRecord) {
    var play = Self.play("song", start: 1_000_000, status: .open)
    play.refOffsetSeconds = 5
    play.end = PlayLogStoreTests.time(1_020_000)
    let id = try store.record(play)
    try store.recoverOpenPlays()
    return (id, play)
  }

  /// The rest of that airing as a restarted monitor hears it: from `startSeconds` after the cut play's start, on
  /// the same alignment plus `shiftSeconds`.
  static func rest(of play: PlayRecord, after startSeconds: Double, shiftSeconds: Double = 0) -> PlayRecord {
    var rest = play
    rest.start = play.start.addingTimeInterval(startSeconds)
    rest.refOffsetSeconds = play.refOffsetSeconds + startSeconds - shiftSeconds
    rest.end = rest.start.addingTimeInterval(8)
    rest.detectedAt = rest.start.addingTimeInterval(6)
    rest.status = .open
    return rest
  }

  @Test("The rest of an airing cut by a restart reopens the recovered play, which then moves on and closes")
  func restOfAiringReopensRecoveredPlay() throws {
    let store = try PlayLogStore(path: ":memory:")
    let (id, play) = try Self.recoveredAiring(in: store)
    let rest = Self.rest(of: play, after: 26, shiftSeconds: 0.4)
    #expect(try store.reopenPlayOfSameAiring(as: rest)?.id == id)
    #expect(try store.plays().map(\.status) == [.open])
    try store.extend(playID: id, end: play.start.addingTimeInterval(180), confidence: 0.95, status: .closed)
    let plays = try store.plays()
    #expect(plays.count == 1, "one airing, one play: \(plays)")
    #expect(plays.first?.status == .closed)
    #expect(plays.first?.start == play.start, "the airing's start stays")
    #expect(plays.first?.refOffsetSeconds == 5, "and the reference offset of its start")
    #expect(plays.first?.end == play.start.addingTimeInterval(180))
    #expect(plays.first?.confidence == 0.95)
  }

  @Test("Only a play of the same item, channel and alignment that ended within the restart gap is reopened")
  func onlyTheSameAiringIsReopened() throws {
    let store = try PlayLogStore(path: ":memory:")
    let (id, play) = try Self.recoveredAiring(in: store)
    var elsewhere = Self.rest(of: play, after: 26)
    elsewhere.channel = "other"
    var otherItem = Self.rest(of: play, after: 26)
    otherItem.itemKey = "key-other"
    let shifted = Self.rest(of: play, after: 26, shiftSeconds: PlayLogStore.sameAiringToleranceSeconds + 0.5)
    let late = Self.rest(of: play, after: 20 + PlayLogStore.restartGapSeconds + 1)
    for candidate in [elsewhere, otherItem, shifted, late] {
      #expect(try store.reopenPlayOfSameAiring(as: candidate) == nil, "\(candidate)")
    }
    #expect(try store.plays().map(\.status) == [.recovered], "nothing changed")

    let rest = Self.rest(of: play, after: 26)
    #expect(try store.reopenPlayOfSameAiring(as: rest)?.status == .recovered)
    #expect(try store.reopenPlayOfSameAiring(as: rest) == nil, "reopened once: it is open now")
    #expect(try store.reopenPlayOfSameAiring(as: rest, retrying: true)?.id == id, "a retry finds it open")
  }

  @Test("A play closed by a gap in the input (a jackd restart, a stream's reconnection) is continued by its rest")
  func playClosedByGapIsContinued() throws {
    let store = try PlayLogStore(path: ":memory:")
    var closed = Self.play("closed", start: 2_000_000, status: .closed)
    closed.end = PlayLogStoreTests.time(2_030_000)
    let id = try store.record(closed)
    let rest = Self.rest(of: closed, after: 35, shiftSeconds: 1.6)
    let continued = try store.reopenPlayOfSameAiring(as: rest)
    #expect(continued == ContinuedPlay(id: id, status: .closed, end: closed.end), "\(String(describing: continued))")
    #expect(try store.plays().map(\.status) == [.open])
  }

  @Test("The same play logged again is continued by the earlier play that spans it, which says so")
  func samePlayLoggedAgainIsSpanned() throws {
    let store = try PlayLogStore(path: ":memory:")
    var whole = Self.play("whole", start: 5_000_000, status: .closed)
    whole.end = whole.start.addingTimeInterval(180)
    let id = try store.record(whole)
    let continued = try #require(try store.reopenPlayOfSameAiring(as: whole))
    #expect(continued == ContinuedPlay(id: id, status: .closed, end: whole.end))
    #expect(continued.spans(whole))
    var again = whole
    again.end = whole.end.addingTimeInterval(0.0004)  // the same play found again, to the millisecond
    #expect(continued.spans(again))
    var longer = whole
    longer.end = whole.end.addingTimeInterval(0.001)
    #expect(!continued.spans(longer), "a play that goes on past it is the rest of an airing")
  }

  @Test("The rest of a sped-up airing, found young at speed 1, continues the earlier play on the earlier play's line")
  func youngSpeedContinuesOnEarlierLine() throws {
    let store = try PlayLogStore(path: ":memory:")
    var first = Self.play("fast", start: 4_000_000, status: .closed)
    first.refOffsetSeconds = 10
    first.speed = 1.03
    first.end = first.start.addingTimeInterval(60)
    let id = try store.record(first)
    // 120 s later, on the same line (the reference 123.6 s further), but reported at speed 1 while young: its air
    // time minus its offset over its own speed is 3.9 s off the first part's.
    var rest = first
    rest.start = first.start.addingTimeInterval(120)
    rest.refOffsetSeconds = 10 + 120 * 1.03
    rest.speed = 1
    rest.end = rest.start.addingTimeInterval(6)
    rest.status = .open
    #expect(try store.reopenPlayOfSameAiring(as: rest)?.id == id)
  }

  /// A young part cut by a SIGKILL, as `bench/chaos.py` logged it (ch01 "Knolls", seed 1): 5.2 s found on a line
  /// 9.4 s of reference off the airing's, then the rest heard on the true line 4.2 s after the part's last match.
  static func youngPartAndRest(partSeconds: Double, itemSeconds: Double?) -> (part: PlayRecord, rest: PlayRecord) {
    var part = Self.play("knolls", start: 6_000_000, status: .recovered)
    part.itemDurationSeconds = itemSeconds
    part.refOffsetSeconds = 15.457
    part.speed = 0.9928
    part.end = part.start.addingTimeInterval(partSeconds)
    var rest = part
    rest.start = part.start.addingTimeInterval(9.408)
    rest.refOffsetSeconds = 15.604
    rest.speed = 1
    rest.end = rest.start.addingTimeInterval(8)
    rest.status = .open
    return (part, rest)
  }

  @Test("The rest of an airing whose young part was on a repeated section's line continues it, on the rest's line")
  func restContinuesYoungPartOnNearbyLine() throws {
    let store = try PlayLogStore(path: ":memory:")
    let (part, rest) = Self.youngPartAndRest(partSeconds: 5.248, itemSeconds: 408)
    let id = try store.record(part)
    #expect(PlayLogStore.continuesAiring(rest, of: part))
    #expect(try store.reopenPlayOfSameAiring(as: rest)?.id == id)
    let plays = try store.plays()
    #expect(plays.count == 1, "\(plays)")
    #expect(plays.first?.start == part.start, "the airing's start stays")
    #expect(plays.first?.refOffsetSeconds == 6.196, "the rest's line, carried back to the start: \(plays)")
    #expect(plays.first?.speed == 1)
  }

  @Test(
    "A part near the rest's line is not its airing when it was not young, its item is short or of unknown length",
    arguments: [(25.0, 408.0), (5.248, 15.0), (5.248, nil)] as [(Double, Double?)])
  func nearbyLineNeedsAYoungPartOfALongItem(partSeconds: Double, itemSeconds: Double?) throws {
    let store = try PlayLogStore(path: ":memory:")
    let (part, rest) = Self.youngPartAndRest(partSeconds: partSeconds, itemSeconds: itemSeconds)
    try store.record(part)
    #expect(!PlayLogStore.continuesAiring(rest, of: part))
    #expect(try store.reopenPlayOfSameAiring(as: rest) == nil)
  }

  @Test("Two airings of an item shorter than the tolerance stay two plays: the tolerance is at most half its length")
  func shortItemAiredTwiceIsTwoPlays() throws {
    let store = try PlayLogStore(path: ":memory:")
    var first = Self.play("sting", start: 3_000_000, status: .closed)
    first.itemDurationSeconds = PlayLogStore.sameAiringToleranceSeconds - 1
    first.end = first.start.addingTimeInterval(first.itemDurationSeconds!)
    try store.record(first)
    var second = first
    second.start = first.end
    second.end = second.start.addingTimeInterval(first.itemDurationSeconds!)
    second.status = .open
    #expect(try store.reopenPlayOfSameAiring(as: second) == nil, "the next airing, back to back, is a new play")
  }

  @Test("An event already recorded is found by channel, kind, times and detail")
  func recordedEventIsFound() throws {
    let store = try PlayLogStore(path: ":memory:")
    let start = PlayLogStoreTests.time(5_000)
    #expect(try store.recordedEventID(channel: "fm", kind: .gap, start: start, end: nil, detail: "lost") == nil)
    let id = try store.recordEvent(channel: "fm", kind: .gap, start: start, detail: "lost")
    let restart = try store.recordEvent(channel: nil, kind: .restart, start: start, end: start, detail: "")
    #expect(try store.recordedEventID(channel: "fm", kind: .gap, start: start, end: nil, detail: "lost") == id)
    #expect(try store.recordedEventID(channel: nil, kind: .restart, start: start, end: start, detail: "") == restart)
    #expect(try store.recordedEventID(channel: "am", kind: .gap, start: start, end: nil, detail: "lost") == nil)
    #expect(try store.recordedEventID(channel: "fm", kind: .gap, start: start, end: start, detail: "lost") == nil)
  }

  @Test("continuesAiring says what reopenPlayOfSameAiring does, for random pairs of plays (seeded)")
  func continuesAiringIsTheStoresRule() throws {
    var random = SeededGenerator(seed: 12)
    let origin = Date(timeIntervalSince1970: 1_772_366_400)
    var outcomes: [Bool: Int] = [:]
    for trial in 0..<400 {
      let store = try PlayLogStore(path: ":memory:")
      let earlierStart = Double.random(in: 0...100, using: &random)
      let earlier = PlayRecord(
        channel: "fm", itemKey: "song", title: "Song",
        itemDurationSeconds: [nil, 4, 200].randomElement(using: &random)!,
        start: origin + earlierStart, end: origin + earlierStart + Double.random(in: 1...120, using: &random),
        refOffsetSeconds: Double.random(in: 0...30, using: &random),
        speed: Double.random(in: 0.94...1.06, using: &random), confidence: 0.5, detectedAt: origin + earlierStart,
        status: .closed)
      let line = earlier.refOffsetSeconds
      var later = earlier
      later.channel = Bool.random(using: &random) || trial % 7 != 0 ? "fm" : "am"
      later.itemKey = trial % 11 == 0 ? "jingle" : "song"
      later.start = earlier.start + Double.random(in: -10...(PlayLogStore.restartGapSeconds + 200), using: &random)
      later.end = later.start + 20
      later.speed = earlier.speed + Double.random(in: -0.01...0.01, using: &random)
      later.refOffsetSeconds =
        line + later.start.timeIntervalSince(earlier.start) * earlier.speed
        + Double.random(in: -12...12, using: &random)
      later.status = .open
      try store.record(earlier)
      let reopened = try store.reopenPlayOfSameAiring(as: later) != nil
      outcomes[reopened, default: 0] += 1
      #expect(PlayLogStore.continuesAiring(later, of: earlier) == reopened, "trial \(trial): \(earlier) \(later)")
    }
    #expect(outcomes[true, default: 0] >= 40 && outcomes[false, default: 0] >= 40, "both outcomes tried: \(outcomes)")
  }
}
