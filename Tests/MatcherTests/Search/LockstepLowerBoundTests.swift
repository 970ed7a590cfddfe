import TestSupport
import Testing

@testable import Matcher

@Suite("LockstepLowerBound")
struct LockstepLowerBoundTests {
  @Test("Each search finds the first element not below its key, as a linear scan does", arguments: [1, 2, 3])
  func eachSearchFindsWhatLinearScanFinds(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Reused across batches, and started small, so that it grows on the way.
    let searches = LockstepLowerBound(capacity: 16)
    for _ in 0..<20 {
      // Lists of every length from empty to long, with runs of equal elements, and keys below, inside and above them.
      let lists: [[UInt32]] = (0..<40).map { _ in
        let count = Int(generator.next() % 300)
        return (0..<count).map { _ in UInt32(truncatingIfNeeded: generator.next() % 1000) }.sorted()
      }
      let keys = lists.map { _ in UInt32(truncatingIfNeeded: generator.next() % 1100) }
      searches.removeAll()
      let buffers = lists.map { list in
        let b = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: list.count)
        _ = b.initialize(from: list)
        return b
      }
      defer { for b in buffers { b.deallocate() } }
      let numbers = zip(buffers, keys).map { searches.append(UnsafeBufferPointer($0), key: $1) }
      searches.run()
      for (i, number) in numbers.enumerated() {
        let expected = lists[i].firstIndex { $0 >= keys[i] } ?? lists[i].count
        #expect(searches.lowerBound(number) == expected)
      }
    }
  }

  @Test(
    "A single search finds the same, in lists short enough to scan and long enough to halve first", arguments: [1, 2])
  func singleSearchFindsWhatLinearScanFinds(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    for count in [0, 1, 15, 16, 17, 300, 1024, 1025, 5000] {
      let list = (0..<count).map { _ in UInt32(truncatingIfNeeded: generator.next() % 3000) }.sorted()
      list.withUnsafeBufferPointer { buffer in
        for key in [0, 1, 1500, 2999, 3000, UInt32.max] + (0..<50).map({ _ in UInt32(generator.next() % 3000) }) {
          let expected = list.firstIndex { $0 >= key } ?? list.count
          #expect(LockstepLowerBound.lowerBound(of: key, in: buffer) == expected)
        }
      }
    }
  }

  @Test("Searches started from a guess find the same, whether the guess is right, near or far off", arguments: [1, 2])
  func searchesFromAGuessFindWhatLinearScanFinds(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let searches = LockstepLowerBound(capacity: 16)
    for count in [0, 1, 15, 16, 17, 33, 300, 1024, 1025, 5000] {
      let list = (0..<count).map { _ in UInt32(truncatingIfNeeded: generator.next() % 3000) }.sorted()
      list.withUnsafeBufferPointer { buffer in
        for key in [0, 1, 1500, 2999, 3000, UInt32.max] + (0..<30).map({ _ in UInt32(generator.next() % 3000) }) {
          let expected = list.firstIndex { $0 >= key } ?? list.count
          let guesses =
            [expected, expected - 1, expected + 1, expected - 40, expected + 40, -5, 0, count, count + 7]
            + [15, 16, 17, 31, 32, 33].flatMap { [expected - $0, expected + $0] }  // one line, two lines, beyond
            + [47, 48, 49, 95, 96, 97, 100, 500, 2000, 4999].flatMap { [expected - $0, expected + $0] }  // galloping
          searches.removeAll()
          let numbers = guesses.map { searches.append(buffer, key: key, guess: $0) }
          searches.run()
          for (guess, number) in zip(guesses, numbers) {
            #expect(searches.lowerBound(number) == expected, "count \(count), key \(key), guess \(guess)")
            #expect(
              LockstepLowerBound.lowerBound(of: key, in: buffer, guess: guess) == expected,
              "count \(count), key \(key), guess \(guess)")
          }
        }
      }
    }
  }
}
