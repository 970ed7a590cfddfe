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
    // The model: every pair recorded per play, in order; a forgotten play starts empty. Each step records a pair of
    // its own (anchor frame = step), so a pair is remembered exactly when it is among its play's last 4,096.
    var recorded: [Int: [UInt64]] = [:]
    for step in 0..<60_000 {
      let play = Int(generator.next() % 5)
      if generator.next() % 5000 == 0 {
        pairs.forget(playID: play)
        recorded[play] = nil
        continue
      }
      let target = Int32(step) + Int32(1 + generator.next() % 40)
      pairs.record(playID: play, anchorFrame: Int32(step), targetFrame: target)
      recorded[play, default: []].append(PlayedPairs.key(anchorFrame: Int32(step), targetFrame: target))
      if step % 2999 == 0 {
        for p in 0..<6 {
          let all = recorded[p] ?? []
          let remembered = all.suffix(PlayedPairs.capacity)
          // The newest, the oldest remembered, 64 anywhere between, those just forgotten, and another play's.
          let forgotten = all.dropLast(PlayedPairs.capacity).suffix(8)
          let anywhere =
            remembered.isEmpty
            ? []
            : (0..<64).map { _ in remembered[remembered.startIndex + Int(generator.next() % UInt64(remembered.count))] }
          let asked =
            Array(remembered.suffix(8) + remembered.prefix(8) + forgotten + (recorded[(p + 1) % 6] ?? []).suffix(8))
            + anywhere
          let expected = Set(remembered)
          #expect(pairs.matchedCount(of: asked, byPlay: p) == asked.count { expected.contains($0) }, "play \(p)")
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
