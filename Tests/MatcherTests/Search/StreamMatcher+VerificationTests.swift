import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher verification")
struct StreamMatcherVerificationTests {
  /// A matcher of a catalog of one 30 s synthetic song, the song's reference peaks, where the song starts on the
  /// catalog's frame axis, and the unmodified speed hypothesis: what the lines below are made of.
  struct SongLine {
    let signature: Signature
    let sink = CollectingSink()
    let matcher: StreamMatcher
    let base: UInt32
    let unmodified: Int

    init() throws {
      let samples = SyntheticSong(seed: 7, seconds: 30).render()
      let catalog = try MatcherHarness.catalog(ofRecordings: [(samples, "song")])
      signature = try MatcherHarness.referenceSignature(of: samples)
      matcher = StreamMatcher(catalog: catalog, sink: sink)
      base = catalog.tracks[0].globalStartFrame
      unmodified = try #require(matcher.hypotheses.firstIndex { $0.speed == 1 && !$0.pitchShifted })
    }
  }

  /// A line of a 30 s synthetic song on reference frame = broadcast frame - 50, at speed 1: 6 matches that voted, from
  /// `votedAnchors` with `votedTargets`, and matches of common hashes that did not vote (the song's own reference pairs,
  /// looked up by the broadcast at their anchor frames on the line, each with a target frame of its own), up to
  /// `matches` in all. Returns how many plays started when the cell was verified.
  static func playsStarted(votedAnchors: [Int32], votedTargets: [Int32], matches: Int) throws -> Int {
    let song = try SongLine()
    let (signature, sink, matcher, base, unmodified) = (
      song.signature, song.sink, song.matcher, song.base, song.unmodified
    )
    let catalog = matcher.catalog
    let first = votedAnchors.min()!
    let last = votedAnchors.max()!
    // Reference pairs whose anchors the line places among the voted ones, at anchors of their own; each target 3
    // frames after its anchor, which no voted match uses.
    var usedAnchors = Set(votedAnchors)
    var unvoted = 0
    for pair in PairHasher(parameters: catalog.parameters).referenceHashes(of: signature.peaks)
    where unvoted < matches - votedAnchors.count {
      let anchor = Int32(pair.frame) + 50
      guard anchor > first && anchor < last && !usedAnchors.contains(anchor) && !votedTargets.contains(anchor + 3)
      else { continue }
      usedAnchors.insert(anchor)
      matcher.commonHistory.append(
        [CommonLookup(anchorFrame: anchor, hash: pair.hash, hypotheses: HypothesisSet(unmodified))],
        targetFrame: anchor + 3)
      unvoted += 1
    }
    #expect(unvoted == matches - votedAnchors.count)
    for (anchor, target) in zip(votedAnchors, votedTargets) {
      matcher.addMatch(
        hypothesis: unmodified, anchorFrame: anchor, targetFrame: target, reference: base + UInt32(anchor - 50))
    }
    matcher.verifyCandidates()
    return sink.started.count
  }

  @Test("A dense line with matches that did not vote is confirmed with 2 target peaks that two anchors agree on")
  func denseLineWithTwoAgreeingTargetsIsConfirmed() throws {
    // 10 matches over 1.7 s (5.9 a second); targets 310 and 330 each placed by two anchors.
    let started = try Self.playsStarted(
      votedAnchors: [300, 308, 316, 324, 332, 340], votedTargets: [310, 310, 330, 330, 345, 353], matches: 10)
    #expect(MatcherTuning.minAgreeingTargets(ofLineWithMatches: 10, spanningSeconds: 1.7) == 2)
    #expect(started == 1)
  }

  @Test("A sparse line with matches that did not vote and 2 target peaks that two anchors agree on is not confirmed")
  func sparseLineWithTwoAgreeingTargetsIsNotConfirmed() throws {
    // 12 matches over about 7.5 s (1.6 a second), as sparse as a distractor's chance line at 10,000 hours (11 over
    // 7.8 s); a third agreeing target confirms the same line.
    let anchors: [Int32] = [300, 308, 316, 324, 500, 530]
    let started = try Self.playsStarted(
      votedAnchors: anchors, votedTargets: [310, 310, 330, 330, 505, 535], matches: 12)
    #expect(started == 0)
    let withThird = try Self.playsStarted(
      votedAnchors: anchors, votedTargets: [310, 310, 330, 330, 535, 535], matches: 12)
    #expect(withThird == 1)
  }

  @Test("A sparse line with matches that did not vote needs 2 matches more than minMatches, however many targets agree")
  func sparseLineNeedsTwoMoreMatches() throws {
    // 3 agreeing targets over about 7.5 s, as a distractor's chance line at 100 hours had with 10 matches.
    let anchors: [Int32] = [300, 308, 316, 324, 500, 530]
    let targets: [Int32] = [310, 310, 330, 330, 535, 535]
    #expect(MatcherSettings().minMatches + MatcherTuning.sparseLineExtraMatches == 12)
    #expect(try Self.playsStarted(votedAnchors: anchors, votedTargets: targets, matches: 10) == 0)
    #expect(try Self.playsStarted(votedAnchors: anchors, votedTargets: targets, matches: 11) == 0)
    #expect(try Self.playsStarted(votedAnchors: anchors, votedTargets: targets, matches: 12) == 1)
  }

  /// A line like `playsStarted`'s whose 6 voted matches are approximate (`MatchQueue.Match.approximate`): each a
  /// frame past the posting of a reference pair whose lookup, with the same anchor and target, is also in the common
  /// history; and `unvotedOnly` more lookups of pairs on the line that did not vote. Returns how many plays started.
  static func playsStartedWithApproximateVotes(unvotedOnly: Int) throws -> Int {
    let song = try SongLine()
    let (signature, sink, matcher, base, h) = (song.signature, song.sink, song.matcher, song.base, song.unmodified)
    let catalog = matcher.catalog
    // Reference pairs whose anchors the line (reference = broadcast - 50) places within 1.7 s, one per anchor.
    var pairs: [(anchor: Int32, hash: UInt32)] = []
    for pair in PairHasher(parameters: catalog.parameters).referenceHashes(of: signature.peaks)
    where pair.frame >= 250 && pair.frame <= 303 && !pairs.contains(where: { $0.anchor == Int32(pair.frame) + 50 }) {
      pairs.append((Int32(pair.frame) + 50, pair.hash))
    }
    try #require(pairs.count >= 6 + unvotedOnly)
    // The voted ones: two targets placed by two anchors each.
    let votedTargets: [Int32] = [360, 360, 370, 370, 380, 390]
    for (k, pair) in pairs.prefix(6 + unvotedOnly).enumerated() {
      let target = k < 6 ? votedTargets[k] : pair.anchor + 3
      matcher.commonHistory.append(
        [CommonLookup(anchorFrame: pair.anchor, hash: pair.hash, hypotheses: HypothesisSet(h))], targetFrame: target)
    }
    for (k, pair) in pairs.prefix(6).enumerated() {
      let reference = base + UInt32(pair.anchor - 50) + 1
      let d = matcher.diagonal(hypothesis: h, anchorFrame: pair.anchor, reference: reference)
      matcher.search(
        hypothesis: h, anchorFrame: pair.anchor, targetFrame: votedTargets[k], reference: reference, diagonal: d,
        slots: matcher.votes.slots(hypothesis: h, diagonal: d), approximate: true)
    }
    matcher.verifyCandidates()
    return sink.started.count
  }

  @Test("An approximate match and its pair's posting a frame away count as one match")
  func approximateMatchCountsOnceWithItsPairsPosting() throws {
    // 6 + 3 distinct pairs are under minMatches (10), however many times the 6 are gathered; 6 + 4 reach it.
    #expect(MatcherSettings().minMatches == 10)
    #expect(try Self.playsStartedWithApproximateVotes(unvotedOnly: 3) == 0)
    #expect(try Self.playsStartedWithApproximateVotes(unvotedOnly: 4) == 1)
  }
}
