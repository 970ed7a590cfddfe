/// Where two runs of samples first differ, for expectations on long audio: `#expect(a == b)` on arrays of millions
/// of samples would have the test library compute a full diff when they differ, which takes hours.
/// Threads: a value; any thread.
public struct SampleDifference: CustomStringConvertible, Equatable {
  /// The first index where they differ (the shorter one's count when one is a prefix of the other).
  public var index: Int
  public var expected: Float?
  public var actual: Float?
  public var expectedCount: Int
  public var actualCount: Int

  /// `nil` when `actual` holds exactly the samples of `expected` (bit for bit, in order, same count).
  public static func between(expected: some Collection<Float>, actual: some Collection<Float>) -> SampleDifference? {
    var e = expected.makeIterator()
    var a = actual.makeIterator()
    var index = 0
    while true {
      let x = e.next()
      let y = a.next()
      if x == nil && y == nil { return nil }
      if x != y || x == nil || y == nil {
        return SampleDifference(
          index: index, expected: x, actual: y, expectedCount: expected.count, actualCount: actual.count)
      }
      index += 1
    }
  }

  public var description: String {
    "first difference at sample \(index): expected \(expected.map { "\($0)" } ?? "the end"), got "
      + "\(actual.map { "\($0)" } ?? "the end") (\(expectedCount) samples expected, \(actualCount) got)"
  }
}
