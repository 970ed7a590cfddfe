import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher voting")
struct StreamMatcherVotingTests {
  @Test("A cluster that grows one match at a time is reported at its tenth match, not at the next multiple of 6 votes")
  func slowClusterIsReportedAsSoonAsItPasses() throws {
    let catalog = try MatcherHarness.catalog(ofRecordings: [(SyntheticSong(seed: 7, seconds: 30).render(), "song")])
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: catalog, sink: sink)
    let settings = matcher.settings
    #expect(settings.minVotes == 6 && settings.minMatches == 10)
    let base = catalog.tracks[0].globalStartFrame
    let unmodified = try #require(matcher.hypotheses.firstIndex { $0.speed == 1 && !$0.pitchShifted })
    // One match every 10 frames (0.32 s) on the diagonal of reference frame = broadcast frame - 50, at speed 1,
    // each from its own anchor: a sparse intro, matched one pair at a time.
    var reportedAt: Int?
    for k in 0..<14 where reportedAt == nil {
      let anchor = Int32(100 + 10 * k)
      matcher.addMatch(
        hypothesis: unmodified, anchorFrame: anchor, targetFrame: anchor + 5, reference: base + UInt32(50 + 10 * k))
      matcher.verifyCandidates()
      if !sink.started.isEmpty { reportedAt = k + 1 }
    }
    // Verified at 6 votes (too few matches), then every 2: at 10 it passes. Every 6 would have waited for 12.
    #expect(reportedAt == settings.minMatches, "reported at match \(reportedAt.map(String.init) ?? "never")")
    #expect(sink.started.count == 1)
  }
}
