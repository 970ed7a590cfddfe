import Testing

@testable import Matcher

@Suite("RunningPlay")
struct RunningPlayTests {
  /// A play on the line reference = broadcast frame, with matches from 3 anchors every 8 frames (a quarter second)
  /// over frames 0…320 (10 s): its sustained support ends at frame 330.
  static func playWithTenSecondsOfSupport() -> RunningPlay {
    var play = RunningPlay(
      id: 1, trackIndex: 0, referenceRange: 0..<10_000, alpha: 0, beta: 1, firstFrame: 0, pitchShifted: false,
      detectedAtSeconds: 2)
    for anchor in stride(from: Int32(0), through: 320, by: 8) {
      for k in Int32(0)..<3 {
        play.add(anchorFrame: anchor + k, targetFrame: anchor + k + 8, reference: UInt32(anchor + k))
      }
    }
    return play
  }

  /// Matches from one anchor peak: its pairs with `count` targets.
  static func burst(_ play: inout RunningPlay, anchor: Int32, count: Int, contested: Bool = false) {
    for k in 0..<count {
      play.add(
        anchorFrame: anchor, targetFrame: anchor + 4 + Int32(k), reference: UInt32(anchor), contested: contested)
    }
  }

  @Test("Matches anchored in the ten seconds from its first match count as its opening")
  func openingMatches() {
    var play = RunningPlay(
      id: 1, trackIndex: 0, referenceRange: 0..<10_000, alpha: 0, beta: 1, firstFrame: 100, pitchShifted: false,
      detectedAtSeconds: 2)
    #expect(play.openingEndFrame == 100 + 10 * RunningPlay.bucketFrames)
    for anchor in stride(from: Int32(100), through: 900, by: 8) {
      play.add(anchorFrame: anchor, targetFrame: anchor + 8, reference: UInt32(anchor))
    }
    #expect(play.openingMatchCount == 40, "anchors 100, 108, … 412")
    #expect(play.matchCount == 101)
  }

  @Test("Its sustained support sets its last frame")
  func supportSetsTheEnd() {
    #expect(Self.playWithTenSecondsOfSupport().lastFrame == 330)
  }

  @Test("Many matches from one anchor peak 12 s after its support do not move its end")
  func oneAnchorLongAfterDoesNotMoveTheEnd() {
    var play = Self.playWithTenSecondsOfSupport()
    Self.burst(&play, anchor: 700, count: 7)
    #expect(play.lastFrame == 330)
    #expect(play.matchCount == 3 * 41 + 7, "the matches still count")
  }

  @Test("Matches from three anchor peaks within 2 s move its end, however late")
  func threeAnchorsMoveTheEnd() {
    var play = Self.playWithTenSecondsOfSupport()
    Self.burst(&play, anchor: 1000, count: 1)
    Self.burst(&play, anchor: 1020, count: 1)
    #expect(play.lastFrame == 330)
    Self.burst(&play, anchor: 1050, count: 1)
    #expect(play.lastFrame == 1054)
  }

  /// Adds `count` matches on the line from each anchor peak in `anchors`, to a play held open after 20 s.
  static func held(_ play: inout RunningPlay, anchors: [Int32], each count: Int) {
    for a in anchors {
      for k in 0..<count {
        play.add(anchorFrame: a, targetFrame: a + 4 + Int32(k), reference: UInt32(a), heldAfterFrames: 625)
      }
    }
  }

  @Test("On a line held open past its gap, matches from seven anchors move its end only at a tenth of its mean rate")
  func heldLineNeedsAShareOfItsRate() {
    let sevenInTwoSeconds = (Int32(0)..<7).map { 1500 + 8 * $0 }
    // 10 matches every 8 frames over 10 s: about 80 in two seconds; 7 are chance, 21 are the airing heard again.
    var dense = RunningPlay(
      id: 1, trackIndex: 0, referenceRange: 0..<10_000, alpha: 0, beta: 1, firstFrame: 0, pitchShifted: false,
      detectedAtSeconds: 2)
    for anchor in stride(from: Int32(0), through: 320, by: 8) {
      for k in Int32(0)..<10 {
        dense.add(anchorFrame: anchor + k % 3, targetFrame: anchor + k + 8, reference: UInt32(anchor + k % 3))
      }
    }
    let end = dense.lastFrame
    Self.held(&dense, anchors: sevenInTwoSeconds, each: 1)
    #expect(dense.lastFrame == end)
    Self.held(&dense, anchors: sevenInTwoSeconds.map { $0 + 200 }, each: 3)
    #expect(dense.lastFrame == 1748 + 6)

    // The ten-second play of 3 matches every 8 frames, about 24 in two seconds: 7 are more than a tenth of that.
    var sparse = Self.playWithTenSecondsOfSupport()
    Self.held(&sparse, anchors: sevenInTwoSeconds, each: 1)
    #expect(sparse.lastFrame == 1548 + 4)
  }

  @Test("On a line held open past its gap, matches move its end only once they come from seven anchors within 8 s")
  func heldLineNeedsSevenAnchors() {
    // Six anchor peaks with five matches each (a chord held in both recordings): far more than a tenth of the rate.
    var chord = Self.playWithTenSecondsOfSupport()
    Self.held(&chord, anchors: (Int32(0)..<6).map { 1500 + 20 * $0 }, each: 5)
    #expect(chord.lastFrame == 330)
    Self.held(&chord, anchors: [1700, 1710, 1720], each: 2)
    #expect(chord.lastFrame == 1725, "three more within 2 s: seven within 7 s")

    // Three anchors within 2 s, three times (from 47, 53 and 56 s): the seven latest always span more than 8 s.
    var spread = Self.playWithTenSecondsOfSupport()
    Self.held(&spread, anchors: [1500, 1510, 1520, 1700, 1710, 1720, 1800, 1810, 1820], each: 1)
    #expect(spread.lastFrame == 330)
  }

  @Test("Dense matches soon after its support move its end, unless another track's play started since")
  func denseMatchesSoonAfter() {
    var free = Self.playWithTenSecondsOfSupport()
    Self.burst(&free, anchor: 400, count: 3)
    #expect(free.lastFrame == 406)

    var contested = Self.playWithTenSecondsOfSupport()
    Self.burst(&contested, anchor: 400, count: 3, contested: true)
    #expect(contested.lastFrame == 330)
  }
}
