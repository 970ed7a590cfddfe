/// Every `stride`-th posting of a pair index whose directory slots each hold one whole hash
/// (`CatalogIndex.contiguousPostings`): a second level above its sorted posting lists, so that finding where a key lies
/// in a list of a thousand postings reads a few fences and one short stretch of the list (`FencedLowerBounds`),
/// instead of halving the list from a guess, a memory miss at each step.
///
/// A fence is every `stride`-th posting of the index's postings, wherever the list it belongs to starts,
/// so that the fences inside any list are a run of `values`, sorted as the list is, and no table of where each hash's
/// fences start is needed. Derived from the postings when a catalog is built, and read in the checksum's pass over
/// the file when one is loaded (`fill`; 77 MB at 10,000 hours), never stored in the file.
///
/// Immutable once filled (by the thread that made it): any thread may read it.
final class PostingFences: @unchecked Sendable {
  /// Postings per fence: two cache lines of postings between fences.
  static let stride = 32
  let values: UnsafeMutableBufferPointer<UInt32>
  /// The index of the posting of fence 0: the first that starts a cache line, so that the postings between two fences
  /// are two whole lines.
  let phase: Int

  convenience init(postings: UnsafeBufferPointer<UInt32>) {
    self.init(unfilledFor: postings)
    fill(from: postings, range: 0..<postings.count)
  }

  /// Room for the fences of `postings`, not yet read: `fill` reads them, a stretch at a time, so that a catalog's
  /// load takes them from each piece of the file while its checksum has it in the cache.
  init(unfilledFor postings: UnsafeBufferPointer<UInt32>) {
    let address = Int(bitPattern: postings.baseAddress)
    phase = min(postings.count, (Self.lineBytes - address % Self.lineBytes) % Self.lineBytes / 4)
    let count = (postings.count - phase + Self.stride - 1) / Self.stride
    values = .allocate(capacity: count)
  }

  /// Reads the fences among postings `range` of `postings` (the postings this was made for); the ranges of all calls
  /// together must cover them all.
  func fill(from postings: UnsafeBufferPointer<UInt32>, range: Range<Int>) {
    for f in fences(start: range.lowerBound, end: range.upperBound) { values[f] = postings[position(ofFence: f)] }
  }

  deinit { values.deallocate() }

  private static let lineBytes = 64

  /// The index of fence `f`'s posting.
  @inline(__always)
  func position(ofFence f: Int) -> Int { phase + f * Self.stride }

  /// The fences inside postings `start ..< end`.
  @inline(__always)
  func fences(start: Int, end: Int) -> Range<Int> {
    let first = start <= phase ? 0 : (start - phase + Self.stride - 1) / Self.stride
    let past = end <= phase ? 0 : (end - phase + Self.stride - 1) / Self.stride
    return first..<max(first, past)
  }
}
