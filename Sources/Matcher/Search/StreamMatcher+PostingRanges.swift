/// Many lookups of postings within a range of reference frames at once (verification's gathering of a line's
/// common-hash matches): the searches for where each range starts in its hash's posting list run together through the
/// index's fences (`FencedLowerBounds`), so that their memory misses overlap; one after another, each was a binary
/// search that waited for a miss at each step, in a list of a thousand postings at 10,000 hours.
extension StreamMatcher {
  /// A hash's postings wanted within a range of reference frames.
  struct PostingRangeRequest {
    var hash: UInt32
    var range: ClosedRange<UInt32>
  }

  /// Calls `body(i, reference)` with each posting of `requests[i].hash` within `requests[i].range`, in the order of
  /// the requests and, within one, in frame order: what `CatalogIndex.forEachPosting(of:in:)` of each request in turn
  /// gives.
  func forEachPosting(inRanges requests: [PostingRangeRequest], _ body: (Int, UInt32) -> Void) {
    let index = catalog.index
    guard index.residualBits == 0, let fences = catalog.pairFences else {
      for (i, r) in requests.enumerated() { index.forEachPosting(of: r.hash, in: r.range) { body(i, $0) } }
      return
    }
    rangeBounds.removeAll()
    for r in requests {
      let slot = Int(r.hash)
      let (start, end) = (Int(index.directory[slot]), Int(index.directory[slot + 1]))
      _ = rangeBounds.append(
        listStart: start, listEnd: end, key: r.range.lowerBound,
        guess: guess(of: r.range.lowerBound, count: end - start))
    }
    rangeBounds.run(postings: index.postings, fences: fences)
    for (i, r) in requests.enumerated() {
      let list = index.contiguousPostings(of: r.hash)!
      var j = rangeBounds.lowerBound(i)
      while j < list.count && list[j] <= r.range.upperBound {
        body(i, list[j])
        j += 1
      }
    }
  }
}
