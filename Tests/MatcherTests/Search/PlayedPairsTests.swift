import TestSupport
import Testing

@testable import Matcher

@Suite("PlayedPairs")
struct PlayedPairsTests {
  @Test(
    "A play's count of given pairs is that of its last 4,096, with more plays than the pool and plays forgotten",
    arguments: [1, 2, 3])
  func countsAsItsLastPairs(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let pairs = PlayedPairs(plays: 2)
    // The model: every pair recorded per play, in order; a forgotten play starts empty.
    var recorded: [Int: [UInt64]] = [:]
    func randomKey() -> (Int32, Int32) {
      // Few distinct frames, so that plays share pairs and a play repeats its own.
      let anchor = Int32(generator.next() % 3000)
      return (anchor, anchor + Int32(1 + generator.next() % 40))
    }
    for step in 0..<60_000 {
      let play = Int(generator.next() % 5)
      if generator.next() % 5000 == 0 {
        pairs.forget(playID: play)
        recorded[play] = nil
        continue
      }
      let (anchor, target) = randomKey()
      pairs.record(playID: play, anchorFrame: anchor, targetFrame: target)
      recorded[play, default: []].append(PlayedPairs.key(anchorFrame: anchor, targetFrame: target))
      if step % 997 == 0 {
        let asked = (0..<200).map { _ in
          let (a, t) = randomKey()
          return PlayedPairs.key(anchorFrame: a, targetFrame: t)
        }
        for p in 0..<6 {
          let remembered = Set((recorded[p] ?? []).suffix(PlayedPairs.capacity))
          #expect(pairs.matchedCount(of: asked, byPlay: p) == asked.count { remembered.contains($0) }, "play \(p)")
        }
      }
    }
  }

  @Test("A forgotten play matched nothing, and a new play in its ring starts empty")
  func forgottenPlayStartsEmpty() {
    let pairs = PlayedPairs(plays: 1)
    pairs.record(playID: 1, anchorFrame: 10, targetFrame: 20)
    let key = PlayedPairs.key(anchorFrame: 10, targetFrame: 20)
    #expect(pairs.matchedCount(of: [key, key], byPlay: 1) == 2)
    pairs.forget(playID: 1)
    #expect(pairs.matchedCount(of: [key], byPlay: 1) == 0)
    pairs.record(playID: 2, anchorFrame: 11, targetFrame: 20)
    #expect(pairs.matchedCount(of: [key], byPlay: 2) == 0)
    pairs.removeAll()
    #expect(pairs.matchedCount(of: [PlayedPairs.key(anchorFrame: 11, targetFrame: 20)], byPlay: 2) == 0)
  }
}
