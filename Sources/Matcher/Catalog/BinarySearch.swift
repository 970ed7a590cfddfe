/// The binary search that the catalog and the search share: the first index of a range at which a predicate, true for
/// a prefix of the range and false after it, turns false. What the predicate asks decides the bound: `x < key` gives
/// the first element not below `key` (a lower bound), `x <= key` the first above it (an upper bound, and one past the
/// last element at or below `key`).
///
/// Internal to this module, so that the search's hot loops (`CatalogIndex.forEachPosting(of:in:)`,
/// `FencedLowerBounds.halving`) compile it with their predicate in place, as loops written out by hand: from another
/// module it was called, closure and all, and a scan took 1.4 % more instructions.
enum BinarySearch {
  /// The first index of `range` where `isBefore` is false (`range.upperBound` when it holds throughout); `isBefore`
  /// must hold for every index before that one and for none after.
  @inline(__always)
  static func partitionPoint(in range: Range<Int>, where isBefore: (Int) -> Bool) -> Int {
    var lo = range.lowerBound
    var hi = range.upperBound
    while lo < hi {
      let middle = (lo + hi) / 2
      if isBefore(middle) { lo = middle + 1 } else { hi = middle }
    }
    return lo
  }
}
