import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher: where a reference lies in a posting list")
struct StreamMatcherGuessTests {
  @Test(
    "The guess is the reference's share of the list, rounded down or one less, and always inside the list",
    arguments: [1, 2, 3] as [UInt64])
  func guessIsTheShareOfTheListOrOneLess(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Axes from one frame to the most a reference frame can be, lists from one posting to the most an index holds.
    let axes: [UInt64] =
      [1, 2, 3, 7, 1 << 20, 11_647 * 9_000, 1 << 32] + (0..<40).map { _ in 1 + generator.next() % (1 << 32) }
    for axis in axes {
      let multiplier = StreamMatcher.guessMultiplier(axisFrames: axis)
      for _ in 0..<200 {
        let reference = UInt32(generator.next() % axis)
        let count = Int(1 + generator.next() % (generator.next() % 2 == 0 ? 2_000 : UInt64(UInt32.max)))
        let exact = Int(UInt64(reference) * UInt64(count) / axis)
        let guess = StreamMatcher.guess(of: reference, count: count, multiplier: multiplier)
        #expect(guess == exact || guess == exact - 1, "axis \(axis), reference \(reference), count \(count)")
        #expect(guess >= 0 && guess < count, "axis \(axis), reference \(reference), count \(count)")
      }
      // The last frame of the axis, in the longest list.
      let last = StreamMatcher.guess(of: UInt32(axis - 1), count: Int(UInt32.max), multiplier: multiplier)
      #expect(last < Int(UInt32.max))
    }
  }
}
