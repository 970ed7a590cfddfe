import TestSupport
import Testing

@testable import Matcher

@Suite("RadixSort")
struct RadixSortTests {
  @Test("Whole keys come out in the order the standard sort gives, duplicates kept", arguments: [1, 2, 3])
  func wholeKeysSortAsTheStandardSortDoes(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: 600)
    let histograms = UnsafeMutablePointer<Int>.allocate(capacity: RadixSort.byteHistogramCount)
    defer {
      scratch.deallocate()
      histograms.deallocate()
    }
    // Keys shaped as a peak's match keys (hypothesis, anchor, reference), keys that differ in one byte only, keys all
    // alike, and keys of every bit; of every count from none to a few hundred.
    let shapes: [(inout SeededGenerator) -> UInt64] = [
      { g in (g.next() % 13) << 56 | (g.next() % 45) << 32 | g.next() % (1 << 27) },
      { g in 0x0102_0304_0506_0700 | g.next() % 256 },
      { _ in 42 },
      { g in g.next() },
    ]
    for shape in shapes {
      for count in [0, 1, 2, 3, 31, 32, 33, 250, 600] {
        var keys = (0..<count).map { _ in shape(&generator) }
        if count > 3 { keys[count - 1] = keys[0] }
        let expected = keys.sorted()
        keys.withUnsafeMutableBufferPointer { buffer in
          guard let base = buffer.baseAddress else { return }
          RadixSort.sortWholeKeys(base, count: count, scratch: scratch, histograms: histograms)
        }
        #expect(keys == expected)
      }
    }
  }
}
