import CPrefetch
import Common

/// Many searches, each for the first posting not below its key in one posting list of a pair index, run together
/// through the index's fences (`PostingFences`): every search's fences are asked for (`cprefetch_read`) and searched in
/// lockstep from a guess (`LockstepLowerBound`), which leaves each answer within one stretch of `PostingFences.stride`
/// postings; those stretches are asked for and searched the same way. Two rounds of memory misses that overlap across searches,
/// where a search from a guess of where the key lies waited for one miss after another whenever the guess was poor
/// (a hash's postings do not spread evenly over a catalog whose copies of a recording follow each other).
///
/// Buffers grow to the largest batch and are reused. One thread: the matcher's.
final class FencedLowerBounds {
  private struct Search {
    /// The list's first posting (an index of the index's postings) and its end.
    var listStart: Int
    var listEnd: Int
    var key: UInt32
    /// Where the answer is likely to be in the list (an index of it).
    var guess: Int
    /// The first fence inside the list, and the first posting of the stretch searched.
    var firstFence = 0
    var stretchStart = 0
    /// The answer, found when the search was added (a short list), or -1.
    var answer = -1
  }

  private var searches: [Search] = []
  private let fenceSearches = LockstepLowerBound()
  private let stretchSearches = LockstepLowerBound()

  init() { searches.reserveCapacity(1024) }

  func removeAll() { searches.removeAll(keepingCapacity: true) }

  var count: Int { searches.count }

  /// Adds a search for the first posting of `postings[listStart ..< listEnd]` (one hash's list) not below `key`, likely
  /// near the list's `guess`-th posting; returns its number for `lowerBound(_:)`.
  ///
  /// A list of at most `maxPostingsSearchedAtOnce` postings is searched at once, by halving it.
  @inline(__always)
  func append(
    listStart: Int, listEnd: Int, key: UInt32, guess: Int, in postings: UnsafeBufferPointer<UInt32>
  ) -> Int {
    var search = Search(listStart: listStart, listEnd: listEnd, key: key, guess: guess)
    if listEnd - listStart <= Self.maxPostingsSearchedAtOnce {
      search.answer = Self.halving(postings, start: listStart, end: listEnd, key: key) - listStart
    }
    searches.append(search)
    return searches.count - 1
  }

  /// The first of `postings[start ..< end]` not below `key` (`end` when there is none), found by halving: for a list
  /// of at most `maxPostingsSearchedAtOnce` postings.
  @inline(__always)
  static func halving(_ postings: UnsafeBufferPointer<UInt32>, start: Int, end: Int, key: UInt32) -> Int {
    BinarySearch.partitionPoint(in: start..<end) { postings[$0] < key }
  }

  /// The longest list `append` searches at once, by halving it: a short list is a few cache lines, often read already
  /// (a peak's lookups share hashes), and the batch's rounds over every search cost more than its misses (at 100
  /// hours, searching lists of a few hundred postings in the batch cost a tenth more of a scan's CPU than halving each).
  /// A common hash of a 10,000 h catalog has about 1,200 postings. Postings.
  static let maxPostingsSearchedAtOnce = 512

  /// Runs every search added since `removeAll`, in `postings` through its `fences`.
  func run(postings: UnsafeBufferPointer<UInt32>, fences: PostingFences) {
    let stride = PostingFences.stride
    let fenceValues = UnsafeBufferPointer(fences.values)
    fenceSearches.removeAll()
    for i in searches.indices {
      // A search answered already takes part as an empty one, so that each batch numbers its searches alike.
      guard searches[i].answer < 0 else {
        _ = fenceSearches.append(UnsafeBufferPointer(rebasing: fenceValues[0..<0]), key: 0)
        continue
      }
      let range = fences.fences(start: searches[i].listStart, end: searches[i].listEnd)
      searches[i].firstFence = range.lowerBound
      // The fence at or after the guess: a fence stands for `stride` postings, so a guess off by hundreds of postings
      // is off by a few fences, within the cache line that the search reads first.
      let guess = (searches[i].listStart + searches[i].guess - fences.phase) / stride - range.lowerBound
      if !range.isEmpty {
        cprefetch_read(fenceValues.baseAddress! + range.lowerBound + min(max(guess, 0), range.count - 1))
      }
      _ = fenceSearches.append(
        UnsafeBufferPointer(rebasing: fenceValues[range]), key: searches[i].key, guess: guess)
    }
    fenceSearches.run()
    stretchSearches.removeAll()
    for i in searches.indices {
      let s = searches[i]
      guard s.answer < 0 else {
        _ = stretchSearches.append(UnsafeBufferPointer(rebasing: postings[0..<0]), key: 0)
        continue
      }
      // The fences before fence f are below the key, so the answer lies after the posting of fence f − 1; fence f, if
      // inside the list, is not below the key, so the answer is at its posting at the latest.
      let f = s.firstFence + fenceSearches.lowerBound(i)
      let start = f > s.firstFence ? fences.position(ofFence: f - 1) + 1 : s.listStart
      let end = min(s.listEnd, fences.position(ofFence: f))
      searches[i].stretchStart = start
      if start < end {
        cprefetch_read(postings.baseAddress! + start)
        cprefetch_read(postings.baseAddress! + end - 1)
      }
      _ = stretchSearches.append(UnsafeBufferPointer(rebasing: postings[start..<end]), key: s.key)
    }
    stretchSearches.run()
  }

  /// After `run`: the index in its list of the first posting not below the key of search `i` (the list's count when
  /// there is none).
  @inline(__always)
  func lowerBound(_ i: Int) -> Int {
    guard searches[i].answer < 0 else { return searches[i].answer }
    return searches[i].stretchStart + stretchSearches.lowerBound(i) - searches[i].listStart
  }
}
