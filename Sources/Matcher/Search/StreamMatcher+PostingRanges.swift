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
    guard let fences = catalog.pairFences else {
      for (i, r) in requests.enumerated() { index.forEachPosting(of: r.hash, in: r.range) { body(i, $0) } }
      return
    }
    // Where each range starts in the postings: found at once by halving a short list
    // (`FencedLowerBounds.maxPostingsSearchedAtOnce`), or else the number of its search in the batch, as −1 − number.
    rangeBounds.removeAll()
    rangeStarts.removeAll(keepingCapacity: true)
    for r in requests {
      let slot = Int(r.hash)
      let (start, end) = (Int(index.directory[slot]), Int(index.directory[slot + 1]))
      if end - start <= FencedLowerBounds.maxPostingsSearchedAtOnce {
        rangeStarts.append(FencedLowerBounds.halving(index.postings, start: start, end: end, key: r.range.lowerBound))
      } else {
        let number = rangeBounds.append(
          listStart: start, listEnd: end, key: r.range.lowerBound,
          guess: guess(of: r.range.lowerBound, count: end - start), in: index.postings)
        rangeStarts.append(-1 - number)
      }
    }
    if rangeBounds.count > 0 { rangeBounds.run(postings: index.postings, fences: fences) }
    for (i, r) in requests.enumerated() {
      let slot = Int(r.hash)
      let end = Int(index.directory[slot + 1])
      var j = rangeStarts[i]
      if j < 0 { j = Int(index.directory[slot]) + rangeBounds.lowerBound(-1 - j) }
      while j < end && index.postings[j] <= r.range.upperBound {
        body(i, index.postings[j])
        j += 1
      }
    }
  }
}
