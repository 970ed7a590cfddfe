/// The global frames of one hash's postings, for a lookup: the index's own memory when its directory holds the whole
/// hash (a catalog of more than about two million postings), else a copy of the postings whose residual bits match,
/// kept in a buffer that only grows. One thread: the matcher's.
final class PostingScratch {
  private var buffer: UnsafeMutablePointer<UInt32>
  private var capacity = 256

  init() { buffer = .allocate(capacity: capacity) }
  deinit { buffer.deallocate() }

  /// Valid until the next call.
  @inline(__always)
  func postings(of hash: UInt32, in index: CatalogIndex) -> UnsafeBufferPointer<UInt32> {
    if let inPlace = index.contiguousPostings(of: hash) { return inPlace }
    var count = 0
    index.forEachPosting(of: hash) { position in
      if count == capacity { grow() }
      buffer[count] = position
      count += 1
    }
    return UnsafeBufferPointer(start: buffer, count: count)
  }

  private func grow() {
    let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * 2)
    bigger.update(from: buffer, count: capacity)
    buffer.deallocate()
    buffer = bigger
    capacity *= 2
  }
}
