import TestSupport
import Testing

@testable import Matcher

@Suite("AgreeingTargetCounter")
struct AgreeingTargetCounterTests {
  @Test(
    "Counts the targets that two or more distinct anchors place, as a dictionary of first anchors by target does",
    arguments: [1, 2, 3])
  func countsAsDictionaryDoes(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let counter = AgreeingTargetCounter()
    for _ in 0..<300 {
      // Few targets and anchors, so that targets repeat with the same anchor and with others; frames up to 2^31.
      let count = Int(generator.next() % 120)
      let range = [UInt64(5), 40, UInt64(Int32.max)][Int(generator.next() % 3)]
      let targets = (0..<count).map { _ in Int32(generator.next() % range) }
      let anchors = (0..<count).map { _ in Double(generator.next() % range) }
      var anchorsByTarget: [Int32: Double] = [:]
      var agreeing = Set<Int32>()
      for (target, anchor) in zip(targets, anchors) {
        if let other = anchorsByTarget[target] {
          if other != anchor { agreeing.insert(target) }
        } else {
          anchorsByTarget[target] = anchor
        }
      }
      #expect(counter.count(targets: targets, anchorFrames: anchors) == agreeing.count)
    }
  }
}
