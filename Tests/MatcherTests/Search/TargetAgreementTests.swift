import TestSupport
import Testing

@testable import Matcher

@Suite("TargetAgreement")
struct TargetAgreementTests {
  /// The definition, checked pair by pair: a match agrees when another is within a frame of it in reference, under the
  /// same hypothesis, from a different anchor.
  static func bruteForceAgreed(_ matches: [PeakMatch]) -> [Bool] {
    matches.indices.map { i in
      matches.indices.contains { j in
        j != i && matches[i].hypothesis == matches[j].hypothesis && matches[i].anchorFrame != matches[j].anchorFrame
          && abs(Int64(matches[i].target) - Int64(matches[j].target)) <= 1
      }
    }
  }

  static func agreed(_ matches: [PeakMatch], in agreement: TargetAgreement) -> [PeakMatch] {
    agreement.begin()
    for m in matches { agreement.append(m) }
    var out: [PeakMatch] = []
    agreement.forEachAgreed { out.append($0) }
    return out
  }

  @Test("Agreed matches are exactly those a pairwise check finds, in the order they came", arguments: [1, 2, 3, 4, 5])
  func agreedMatchesAreThosePairwiseCheckFinds(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Reused across peaks of every size, and started small, so that it grows and skips radix passes on the way.
    let agreement = TargetAgreement(capacity: 16)
    for _ in 0..<25 {
      let count = Int(generator.next() % 500)
      // Targets crowded into a small range in some peaks (many agree), spread over 32 bits in others.
      let range: UInt64 = [64, 5000, 1 << 20, 1 << 32][Int(generator.next() % 4)]
      let base = UInt32(truncatingIfNeeded: generator.next() % ((1 << 32) - range + 1))
      let matches = (0..<count).map { _ in
        PeakMatch(
          hypothesis: UInt8(generator.next() % 3), anchorFrame: Int32(generator.next() % 6),
          reference: UInt32(truncatingIfNeeded: generator.next()),
          target: base + UInt32(generator.next() % range))
      }
      let expected = zip(matches, Self.bruteForceAgreed(matches)).filter(\.1).map(\.0)
      let found = Self.agreed(matches, in: agreement)
      #expect(found.count == expected.count)
      #expect(zip(found, expected).allSatisfy { $0.target == $1.target && $0.reference == $1.reference })
    }
  }

  @Test("Two anchors that place the peak two frames apart, or under different hypotheses, do not agree")
  func matchesTwoFramesApartOrUnderOtherHypothesesDoNotAgree() {
    let agreement = TargetAgreement(capacity: 64)
    let apart = [
      PeakMatch(hypothesis: 0, anchorFrame: 10, reference: 1, target: 1000),
      PeakMatch(hypothesis: 0, anchorFrame: 11, reference: 2, target: 1002),
      PeakMatch(hypothesis: 1, anchorFrame: 12, reference: 3, target: 1001),
    ]
    #expect(Self.agreed(apart, in: agreement).isEmpty)
    let sameAnchor = [
      PeakMatch(hypothesis: 0, anchorFrame: 10, reference: 1, target: 1000),
      PeakMatch(hypothesis: 0, anchorFrame: 10, reference: 2, target: 1001),
    ]
    #expect(Self.agreed(sameAnchor, in: agreement).isEmpty)
    let agreeing = apart + [PeakMatch(hypothesis: 0, anchorFrame: 13, reference: 4, target: 1001)]
    #expect(Self.agreed(agreeing, in: agreement).map(\.reference) == [1, 2, 4])
  }
}
