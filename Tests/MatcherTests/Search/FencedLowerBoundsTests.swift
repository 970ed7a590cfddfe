import TestSupport
import Testing

@testable import Matcher

@Suite("FencedLowerBounds")
struct FencedLowerBoundsTests {
  @Test(
    "Each search finds the first posting of its list not below its key, as a linear scan does, whatever its guess",
    arguments: [1, 2, 3])
  func eachSearchFindsWhatLinearScanFinds(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Postings as a pair index lays them out: lists of every length from empty to a few thousand, one after another,
    // each sorted, with runs of equal postings, so that fences fall anywhere in a list or outside every short one.
    var lists: [Range<Int>] = []
    var postings: [UInt32] = []
    for _ in 0..<300 {
      let count =
        [0, 1, 2, 31, 32, 33, 64][Int(generator.next() % 7)] + Int(generator.next() % 3) * Int(generator.next() % 1500)
      let list = (0..<count).map { _ in UInt32(truncatingIfNeeded: generator.next() % 5000) }.sorted()
      lists.append(postings.count..<(postings.count + count))
      postings += list
    }
    // The same postings starting anywhere in a cache line, so that fence 0 falls on any of the first 16 postings.
    for pad in [0, 1, 7, 15] {
      let padded = [UInt32](repeating: 0, count: pad) + postings
      padded.withUnsafeBufferPointer { whole in
        check(UnsafeBufferPointer(rebasing: whole[pad...]), lists: lists, generator: &generator)
      }
    }
  }

  private func check(_ buffer: UnsafeBufferPointer<UInt32>, lists: [Range<Int>], generator: inout SeededGenerator) {
    let fences = PostingFences(postings: buffer)
    #expect(Int(bitPattern: buffer.baseAddress! + fences.phase) % 64 == 0)
    #expect(fences.values.count == (buffer.count - fences.phase + PostingFences.stride - 1) / PostingFences.stride)
    let searches = FencedLowerBounds()
    for _ in 0..<10 {
      searches.removeAll()
      var expected: [Int] = []
      var numbers: [Int] = []
      for list in lists {
        for _ in 0..<3 {
          let key = [0, 5000, UInt32.max, UInt32(generator.next() % 5001)][Int(generator.next() % 4)]
          expected.append(buffer[list].firstIndex { $0 >= key }.map { $0 - list.lowerBound } ?? list.count)
          // Right, near, far off, or outside the list.
          let guess = [expected.last!, expected.last! + 20, expected.last! - 300, -7, list.count + 9][
            Int(generator.next() % 5)]
          numbers.append(
            searches.append(
              listStart: list.lowerBound, listEnd: list.upperBound, key: key, guess: guess, in: buffer))
        }
      }
      searches.run(postings: buffer, fences: fences)
      for (number, answer) in zip(numbers, expected) { #expect(searches.lowerBound(number) == answer) }
    }
  }
}
