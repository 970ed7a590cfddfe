import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("Quiet tail")
struct QuietTailTests {
  /// The measure of windows at `levelsDB` (dBFS, one per window), each window made of whole hops of 256 samples.
  static func measure(_ levelsDB: [Float]) -> QuietTail {
    var tail = QuietTail()
    for level in levelsDB {
      let meanSquare = pow(10, level / 10)
      for _ in 0..<QuietTail.windowHops { tail.add(hopEnergy: meanSquare * 256, samples: 256) }
    }
    tail.flush()
    return tail
  }

  @Test("A recording that fades 20 dB under itself for its last windows is loud until the fade begins")
  func fadeOut() {
    let tail = Self.measure(Array(repeating: -15, count: 40) + [-22, -26, -28] + Array(repeating: -35, count: 10))
    // The first two faded windows (-22 and -26 dB) are within 12 dB of the median (-15 dB); the third is not.
    #expect(tail.loudEndHop == 42 * QuietTail.windowHops)
  }

  @Test("A recording loud to its last window is loud to its end")
  func loudToTheEnd() {
    let tail = Self.measure(Array(repeating: -15, count: 20) + [-20, -12])
    #expect(tail.loudEndHop == 22 * QuietTail.windowHops)
  }

  @Test("Silence after the music neither lowers the median nor counts as loud")
  func silenceAfter() {
    let tail = Self.measure(Array(repeating: -18, count: 10) + Array(repeating: -90, count: 30))
    #expect(tail.loudEndHop == 10 * QuietTail.windowHops)
  }

  @Test("A recording with no window above -60 dBFS has no loud part")
  func silence() {
    #expect(Self.measure(Array(repeating: -70, count: 10)).loudEndHop == nil)
    #expect(QuietTail().loudEndHop == nil)
  }

  @Test("A last partial window counts at its own mean level")
  func partialWindow() {
    var tail = Self.measure(Array(repeating: -15, count: 10))
    tail.add(hopEnergy: pow(10, -1.5) * 256, samples: 256)
    tail.flush()
    #expect(tail.windowMeanSquares.count == 11)
    #expect(abs(tail.windowMeanSquares[10] - pow(10, -1.5)) < 1e-6)
    #expect(tail.loudEndHop == 11 * QuietTail.windowHops)
  }

  @Test(
    "Over random level curves, every window after the loud end is quiet and the one before it is loud",
    arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func property(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let levels = (0..<Int(5 + random.next() % 200)).map { _ in -Float(random.next() % 80) }
    let tail = Self.measure(levels)
    let audible = levels.filter { $0 > -60 }.sorted()
    guard !audible.isEmpty else {
      #expect(tail.loudEndHop == nil)
      return
    }
    let median = audible[audible.count / 2]
    let end = try #require(tail.loudEndHop) / QuietTail.windowHops
    #expect(end >= 1 && end <= levels.count)
    #expect(levels[end - 1] >= median - QuietTail.quietBelowMedianDB - 0.01, "seed \(seed)")
    #expect(levels[end...].allSatisfy { $0 < median - QuietTail.quietBelowMedianDB + 0.01 }, "seed \(seed)")
  }
}
