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

  @Test("On a line held open past its gap, matches from three anchors move its end only at a tenth of its mean rate")
  func heldLineNeedsAShareOfItsRate() {
    let held: Int32 = 625  // 20 s
    func threeAnchors(_ play: inout RunningPlay, from anchor: Int32, each count: Int) {
      for a in [anchor, anchor + 20, anchor + 50] {
        for k in 0..<count {
          play.add(anchorFrame: a, targetFrame: a + 4 + Int32(k), reference: UInt32(a), heldAfterFrames: held)
        }
      }
    }
    // 10 matches every 8 frames over 10 s: about 80 in two seconds; 3 are chance, 9 are the airing heard again.
    var dense = RunningPlay(
      id: 1, trackIndex: 0, referenceRange: 0..<10_000, alpha: 0, beta: 1, firstFrame: 0, pitchShifted: false,
      detectedAtSeconds: 2)
    for anchor in stride(from: Int32(0), through: 320, by: 8) {
      for k in Int32(0)..<10 {
        dense.add(anchorFrame: anchor + k % 3, targetFrame: anchor + k + 8, reference: UInt32(anchor + k % 3))
      }
    }
    let end = dense.lastFrame
    threeAnchors(&dense, from: 1500, each: 1)
    #expect(dense.lastFrame == end)
    threeAnchors(&dense, from: 1600, each: 3)
    #expect(dense.lastFrame == 1656)

    // The ten-second play of 3 matches every 8 frames, about 24 in two seconds: 3 are a tenth of that.
    var sparse = Self.playWithTenSecondsOfSupport()
    threeAnchors(&sparse, from: 1500, each: 1)
    #expect(sparse.lastFrame == 1554)
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
