/// A list of plain values that the search fills and empties again for every broadcast peak (its lookups, triplet
/// probes, hits and match keys): an array without the check that `Array.append` makes on every call that its storage
/// is not shared, a call into the Swift runtime. An hour of air at 1,000 hours appends about 40 million values to these
/// lists, and those checks were 2 % of its scan.
///
/// The storage is its owner's (a `StreamMatcher`, which frees it in `deinit`) and only grows. A copy of the value
/// shares that storage, so the list is only used in place, never copied out of its owner. One thread: the owner's.
struct ScratchList<Element: BitwiseCopyable>: RandomAccessCollection {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(1, capacity)
    base = .allocate(capacity: self.capacity)
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(i: Int) -> Element {
    @inline(__always) get { base[i] }
    @inline(__always) set { base[i] = newValue }
  }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  /// The elements in place, valid until the list next changes.
  var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  /// Empties the list, keeping its storage.
  mutating func removeAll() { count = 0 }

  /// Drops every element from index `newCount` on, keeping the storage.
  mutating func removeLast(from newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "a list keeps a prefix of itself")
    count = newCount
  }

  /// Frees the storage; the list is not used again.
  func deallocate() { base.deallocate() }

  private mutating func grow() {
    let bigger = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
    bigger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity *= 2
  }
}
