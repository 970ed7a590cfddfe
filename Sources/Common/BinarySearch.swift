/// The project's binary search: the first index of a range at which a predicate, true for a prefix of the range and
/// false after it, turns false. What the predicate asks decides the bound: `x < key` gives the first element not below
/// `key` (a lower bound), `x <= key` the first above it (an upper bound, and one past the last element at or below
/// `key`).
///
/// Inlinable, so that the matcher's hot loops (`CatalogIndex.forEachPosting(of:in:)`, `FencedLowerBounds.halving`)
/// compile it with their predicate in place, as loops written out by hand: called across modules, closure and all, it
/// cost a 1,000 h scan 0.56 % more instructions. Public rather than `package` for that alone: this toolchain inlines a
/// public `@inlinable` body into another module, and left a `package` one as 43 calls.
public enum BinarySearch {
  /// The first index of `range` where `isBefore` is false (`range.upperBound` when it holds throughout); `isBefore`
  /// must hold for every index before that one and for none after.
  @inlinable @inline(__always)
  public static func partitionPoint(in range: Range<Int>, where isBefore: (Int) -> Bool) -> Int {
    var lo = range.lowerBound
    var hi = range.upperBound
    while lo < hi {
      let middle = (lo + hi) / 2
      if isBefore(middle) { lo = middle + 1 } else { hi = middle }
    }
    return lo
  }
}
