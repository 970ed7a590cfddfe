import Testing

@testable import Matcher

@Suite("HypothesisSet")
struct HypothesisSetTests {
  @Test("A set lists its hypotheses in order, in every word, and its first; an intersection keeps the shared ones")
  func listsAndIntersects() {
    var a = HypothesisSet()
    #expect(a.isEmpty && Array(a).isEmpty)
    for h in [200, 3, 64, 0, 63, 129, 255, 3] { a.insert(h) }
    #expect(Array(a) == [0, 3, 63, 64, 129, 200, 255])
    #expect(a.first == 0)
    var b = HypothesisSet(255)
    b.insert(64)
    b.insert(5)
    #expect(Array(a.intersection(b)) == [64, 255])
    #expect(a.intersection(b).first == 64)
    #expect(a.intersection(HypothesisSet(1)).isEmpty)
  }
}
