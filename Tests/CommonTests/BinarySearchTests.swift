import TestSupport
import Testing

@testable import Common

@Suite("BinarySearch")
struct BinarySearchTests {
  @Test(
    "The partition point of a sorted list, as a lower and as an upper bound, within any subrange, is the first index a scan from the range's start finds",
    arguments: 1...16)
  func sameAsScan(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Short and long lists, with runs of equal values.
    let count = [0, 1, 2, Int.random(in: 3...40, using: &generator), Int.random(in: 100...5_000, using: &generator)]
      .randomElement(using: &generator)!
    let values = (0..<count).map { _ in UInt32.random(in: 0...UInt32(count / 3 + 1), using: &generator) }.sorted()
    for _ in 0..<200 {
      let start = Int.random(in: 0...count, using: &generator)
      let end = Int.random(in: start...count, using: &generator)
      let key = UInt32.random(in: 0...UInt32(count / 3 + 2), using: &generator)
      let lower = BinarySearch.partitionPoint(in: start..<end) { values[$0] < key }
      let upper = BinarySearch.partitionPoint(in: start..<end) { values[$0] <= key }
      #expect(lower == (start..<end).first { values[$0] >= key } ?? end)
      #expect(upper == (start..<end).first { values[$0] > key } ?? end)
    }
  }

  @Test("An empty range gives its start, and a predicate true throughout gives the range's end")
  func edges() {
    #expect(BinarySearch.partitionPoint(in: 7..<7) { _ in true } == 7)
    #expect(BinarySearch.partitionPoint(in: 3..<9) { _ in true } == 9)
    #expect(BinarySearch.partitionPoint(in: 3..<9) { _ in false } == 3)
  }
}
