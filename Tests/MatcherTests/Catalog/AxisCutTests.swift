import TestSupport
import Testing

@testable import Matcher

@Suite("AxisCut")
struct AxisCutTests {
  @Test("A frame in a cut span is gone, and any other moves down by the frames cut before it", arguments: 1...16)
  func movesLikeCounting(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Up to five spans, some empty, some touching, in any order, on an axis of a few thousand frames.
    var spans: [Range<UInt32>] = []
    var start = UInt32.random(in: 0...50, using: &generator)
    for _ in 0..<Int.random(in: 0...5, using: &generator) {
      let length = UInt32.random(in: 0...400, using: &generator)
      spans.append(start..<(start + length))
      start += length + [0, UInt32.random(in: 1...600, using: &generator)].randomElement(using: &generator)!
    }
    spans.shuffle(using: &generator)
    let cut = AxisCut(removing: spans)
    #expect(cut.isEmpty == spans.allSatisfy(\.isEmpty))
    var cutSoFar: UInt32 = 0
    var wrong: [UInt32] = []
    for frame in UInt32(0)...(start + 100) {
      let expected: UInt32?
      if spans.contains(where: { $0.contains(frame) }) {
        expected = nil
        cutSoFar += 1
      } else {
        expected = frame - cutSoFar
      }
      if cut.moved(frame) != expected { wrong.append(frame) }
    }
    #expect(wrong.isEmpty, "frames moved wrongly: \(wrong.prefix(10))")
  }

  @Test("With a thousand tracks cut, each span's edges and frames between them move as counting says", arguments: 1...4)
  func manySpans(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    // Tracks of 0–20,000 frames and their 256-frame gaps, some cut, some kept between them.
    var spans: [Range<UInt32>] = []
    var start = UInt32.random(in: 0...5_000, using: &generator)
    for _ in 0..<1_000 {
      let length = Catalog.gapFrames + UInt32.random(in: 0...20_000, using: &generator)
      spans.append(start..<(start + length))
      // Seeds 3 and 4 leave long stretches kept (an axis of hundreds of millions of frames, in larger buckets).
      let longestKept: UInt32 = seed > 2 ? 2_000_000 : 50_000
      start += length + [0, 0, UInt32.random(in: 1...longestKept, using: &generator)].randomElement(using: &generator)!
    }
    let cut = AxisCut(removing: spans.shuffled(using: &generator))
    func expected(_ frame: UInt32) -> UInt32? {
      var before: UInt32 = 0
      for span in spans {
        if span.contains(frame) { return nil }
        if span.upperBound <= frame { before += UInt32(span.count) }
      }
      return frame - before
    }
    var frames: [UInt32] = [0, start + 100_000]
    for span in spans {
      frames +=
        [span.lowerBound, span.upperBound - 1, span.upperBound] + (span.lowerBound > 0 ? [span.lowerBound - 1] : [])
    }
    for _ in 0..<2_000 { frames.append(UInt32.random(in: 0...start, using: &generator)) }
    let wrong = frames.filter { cut.moved($0) != expected($0) }
    #expect(wrong.isEmpty, "frames moved wrongly: \(wrong.prefix(10))")
  }

  @Test("Without spans, every frame stays")
  func noCut() {
    #expect(AxisCut().moved(0) == 0)
    #expect(AxisCut().moved(.max) == .max)
    #expect(AxisCut(removing: [5..<5]).isEmpty)
  }
}
