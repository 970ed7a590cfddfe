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

  @Test("Without spans, every frame stays")
  func noCut() {
    #expect(AxisCut().moved(0) == 0)
    #expect(AxisCut().moved(.max) == .max)
    #expect(AxisCut(removing: [5..<5]).isEmpty)
  }
}
