import TestSupport
import Testing

@testable import Matcher

@Suite("RadixSort")
struct RadixSortTests {
  @Test("Keys come out ordered by their 32-bit field, keys of equal fields in their order", arguments: [1, 2, 3])
  func sortsByFieldStably(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: 5000)
    let histograms = UnsafeMutablePointer<Int>.allocate(capacity: RadixSort.histogramCount)
    defer {
      scratch.deallocate()
      histograms.deallocate()
    }
    // Fields of every bit, fields that differ in one digit only (the other passes skipped), fields all alike, and
    // fields of a few values (many ties); the bits outside the field random, so that a sort that moved ties or read
    // them would show. Of every count from none to thousands, past the insertion sort's 32.
    let fields: [(inout SeededGenerator) -> UInt64] = [
      { g in g.next() & 0xFFFF_FFFF },
      { g in 0x1234_5000 | g.next() % 2048 },
      { _ in 42 },
      { g in (g.next() % 5) << 22 },
    ]
    for fieldShift in [0, 20, 32] {
      for field in fields {
        for count in [0, 1, 2, 31, 32, 33, 600, 5000] {
          var keys = (0..<count).map { _ in
            let rest = generator.next() & ~(UInt64(0xFFFF_FFFF) << UInt64(fieldShift))
            return field(&generator) << UInt64(fieldShift) | rest
          }
          let fieldOf = { (k: UInt64) in (k >> UInt64(fieldShift)) & 0xFFFF_FFFF }
          let expected = keys.enumerated().sorted {
            (fieldOf($0.element), $0.offset) < (fieldOf($1.element), $1.offset)
          }
          .map(\.element)
          keys.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            RadixSort.sort(base, count: count, byFieldAt: fieldShift, scratch: scratch, histograms: histograms)
          }
          #expect(keys == expected, "shift \(fieldShift), \(count) keys")
        }
      }
    }
  }
}
