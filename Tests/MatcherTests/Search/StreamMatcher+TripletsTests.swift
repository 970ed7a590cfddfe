import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher's triplet matches")
struct StreamMatcherTripletsTests {
  @Test(
    "Each distinct match is searched once, exact if any of its keys is: the exact keys first, in order, then the rest",
    arguments: [1, 2, 3])
  func distinctMatches(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let seen = ScratchKeySet(capacity: 4)
    for _ in 0..<200 {
      // Few hypotheses, anchors and reference frames, so that matches repeat, exact and approximate alike.
      let count = [0, 1, 2, 10, 300][Int(generator.next() % 5)]
      let keys = (0..<count).map { _ in
        StreamMatcher.tripletMatchKey(
          hypothesis: Int(generator.next() % 3), anchorOffset: Int32(generator.next() % 4),
          reference: UInt32(generator.next() % 6), approximate: generator.next() % 2 == 0)
      }
      var expected: [(UInt64, Bool)] = []
      var named = Set<UInt64>()
      for approximate in [false, true] {
        for key in keys where (key & 1 == 1) == approximate && named.insert(key >> 1).inserted {
          expected.append((key, approximate))
        }
      }
      var found: [(UInt64, Bool)] = []
      keys.withUnsafeBufferPointer { buffer in
        StreamMatcher.forEachDistinctMatch(in: buffer, seen: seen) { found.append(($0, $1)) }
      }
      #expect(found.map(\.0) == expected.map(\.0))
      #expect(found.map(\.1) == expected.map(\.1))
      #expect(Set(found.map { $0.0 >> 1 }).count == found.count, "no match twice")
    }
  }
}
