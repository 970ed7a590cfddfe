import TestSupport
import Testing

@testable import Matcher

@Suite("ScratchList")
struct ScratchListTests {
  private struct Element: Equatable {
    var key: UInt64
    var small: UInt8
  }

  @Test(
    "Appends, changes in place, cuts and emptyings leave the elements an Array would hold, as the storage grows",
    arguments: [1, 2, 3] as [UInt64])
  func holdsWhatAnArrayHolds(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    var list = ScratchList<Element>(capacity: 1)
    defer { list.deallocate() }
    var expected: [Element] = []
    for _ in 0..<80 {
      list.removeAll()
      expected.removeAll()
      #expect(list.isEmpty)
      // None, a few, or enough to double the storage several times over.
      let count = [0, 1, 5, 300, 2_000][Int(generator.next() % 5)]
      for _ in 0..<count {
        let element = Element(key: generator.next(), small: UInt8(truncatingIfNeeded: generator.next()))
        list.append(element)
        expected.append(element)
        if !expected.isEmpty && generator.next() % 4 == 0 {
          let i = Int(generator.next() % UInt64(expected.count))
          list[i].small &+= 1
          expected[i].small &+= 1
        }
        if generator.next() % 64 == 0 {
          let kept = Int(generator.next() % UInt64(expected.count + 1))
          list.removeLast(from: kept)
          expected.removeLast(expected.count - kept)
        }
      }
      #expect(list.count == expected.count)
      #expect(Array(list) == expected)
      #expect(list.indices == expected.indices)
      #expect(list.last == expected.last)
    }
  }
}
