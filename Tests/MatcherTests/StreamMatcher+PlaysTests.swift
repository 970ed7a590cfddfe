import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher reported times")
struct StreamMatcherPlaysTests {
  @Test("A play whose first match maps before the track's audible start starts at the audible start")
  func startIsTheAudibleStart() throws {
    // A track with 2 s of silence before the music: its audible start is 2 s into the reference.
    let track = [Float](repeating: 0, count: 2 * 8000) + SyntheticSong(seed: 41, seconds: 12).render()
    let catalog = try MatcherHarness.catalog(ofRecordings: [(track, "late-start")])
    let audibleStart = catalog.tracks[0].audibleStartSeconds
    #expect(abs(audibleStart - 2) < 0.1)
    let matcher = StreamMatcher(catalog: catalog, sink: nil)
    let silence = [Float](repeating: 0, count: 30 * 8000)
    try silence.withUnsafeBufferPointer { try matcher.append($0, channels: 1, sampleRate: 8000) }

    // Reference frame = broadcast frame - 100 (the song aired from broadcast frame 100 on), and a first match at
    // broadcast frame 120: reference frame 20, 0.8 s into the reference, which is silent there. Such a match was
    // claimed on a young line (a wrong speed hypothesis) that a refit has since left.
    let parameters = catalog.parameters
    let play = PlayTrack(
      id: 1, trackIndex: 0, referenceRange: 0..<UInt32(catalog.tracks[0].frameCount), alpha: -100, beta: 1,
      firstFrame: 120, pitchShifted: false, detectedAtSeconds: 10)
    let reported = matcher.snapshot(of: play, final: false)
    let audibleStartOnAir = parameters.seconds(ofFrame: 100 + parameters.frame(atSeconds: audibleStart))
    #expect(abs(reported.startSeconds - audibleStartOnAir) < 0.01, "not \(parameters.seconds(ofFrame: 120))")
    #expect(abs(reported.referenceOffsetSeconds - audibleStart) < 0.01)
  }
}
