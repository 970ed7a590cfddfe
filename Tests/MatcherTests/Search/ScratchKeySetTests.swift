import TestSupport
import Testing

@testable import Matcher

@Suite("ScratchKeySet")
struct ScratchKeySetTests {
  private struct Key: Hashable {
    var first: UInt64
    var second: UInt64
  }

  @Test(
    "Inserts and lookups answer as a Set's, across many emptyings, as the table grows, and past the generation's wrap",
    arguments: [1, 2, 3])
  func answersAsSetDoes(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Started 20 generations before the wrap-around, so that the emptyings below cross it.
    let set = ScratchKeySet(capacity: 4, firstGeneration: UInt32.max - 20)
    for round in 0..<60 {
      set.removeAll()
      var expected = Set<Key>()
      // Few distinct keys (repeats), or many (the table doubles); words that differ in one bit, or anywhere.
      let count = [0, 1, 3, 40, 700][Int(generator.next() % 5)]
      let spread = [UInt64(4), 1 << 20, .max][round % 3]
      for _ in 0..<count {
        let key = Key(first: generator.next() % spread, second: generator.next() % 3)
        if generator.next() % 3 == 0 {
          #expect(set.contains(key.first, key.second) == expected.contains(key))
        }
        #expect(set.insert(key.first, key.second) == expected.insert(key).inserted)
        #expect(set.count == expected.count)
      }
      for _ in 0..<50 {
        let key = Key(first: generator.next() % spread, second: generator.next() % 3)
        #expect(set.contains(key.first, key.second) == expected.contains(key))
      }
      for key in expected { #expect(set.contains(key.first, key.second)) }
    }
  }

  @Test("An emptied set holds none of the keys it held")
  func emptiedSetHoldsNothing() {
    let set = ScratchKeySet(capacity: 2, firstGeneration: UInt32.max)
    for k in 0..<100 { set.insert(UInt64(k), 7) }
    set.removeAll()
    #expect(set.count == 0)
    for k in 0..<100 { #expect(!set.contains(UInt64(k), 7)) }
    #expect(set.insert(5, 7))
    #expect(!set.insert(5, 7))
  }
}
