/// Many binary searches, each for a key in its own sorted list of postings, run together: each round takes one step of
/// every search, so that their memory misses overlap instead of following one another.
///
/// A posting list of a catalog of hundreds of hours is too long for the cache, and a binary search in it misses at
/// each of its first steps, every step waiting for the one before. Run one after another, the hundreds of searches of
/// one broadcast peak cost one miss after another; in lockstep, the steps of one round do not depend on each other,
/// and the processor keeps many of their misses in flight at once. Each step moves its search with a conditional
/// select, not a branch, so that a mispredicted comparison never discards the loads of the steps after it.
///
/// Buffers grow to the largest batch and are reused. One thread: the matcher's.
final class LockstepLowerBound {
  private struct Search {
    /// The first element the answer may be, and how many elements the search still spans.
    var base: UnsafePointer<UInt32>
    var span: Int
    let start: UnsafePointer<UInt32>
    let key: UInt32
    /// Where the answer is likely to be (an index of the list), or -1.
    let guess: Int
    /// While the search gallops from its guess: how far its next round looks (elements; negative below the answer's
    /// stretch, towards the list's start), else 0.
    var step = 0
  }

  private var searches: UnsafeMutablePointer<Search>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 1024) {
    self.capacity = max(16, capacity)
    searches = .allocate(capacity: self.capacity)
  }

  deinit { searches.deallocate() }

  func removeAll() { count = 0 }

  /// Adds a search for the first element of `list` (sorted) not below `key`; returns its number for `lowerBound(_:)`.
  /// With a `guess` (where the answer is likely to be), the search's first round compares the key with the element
  /// there, and its next rounds with elements one and two cache lines away on the answer's side, read together, then
  /// further away fourfold each round until they bracket the answer: a good guess leaves the answer within one line
  /// that is read already.
  @inline(__always)
  func append(_ list: UnsafeBufferPointer<UInt32>, key: UInt32, guess: Int? = nil) -> Int {
    if count == capacity { grow() }
    // An empty list's search takes no step and reads nothing: any aligned address stands for it.
    let start = list.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<UInt32>.alignment)!
    let g = list.isEmpty ? -1 : guess.map { min(max($0, 0), list.count - 1) } ?? -1
    searches[count] = Search(base: start, span: list.count, start: start, key: key, guess: g)
    count += 1
    return count - 1
  }

  /// Runs every search added since `removeAll`.
  func run() {
    // Round 1: the element at each guess; the answer is above it or not.
    let line = Self.lineElements
    var galloping = false
    for i in 0..<count where searches[i].guess >= 0 {
      let g = searches[i].guess
      if searches[i].start[g] < searches[i].key {
        searches[i].base = searches[i].start + g + 1
        searches[i].span -= g + 1
        searches[i].step = line
      } else {
        searches[i].span = g
        searches[i].step = -line
      }
      galloping = true
    }
    // Then rounds that gallop away from the guess on the answer's side, each comparing the key with the elements
    // `step` and 2 × `step` beyond the stretch's near end, read together, `step` growing fourfold a round: a good guess
    // leaves the answer within the two lines of the first such round; a poor one is bracketed in a few rounds, each
    // a miss per search that overlaps with the others' (halving the whole rest of a list would wait for one miss
    // after another).
    while galloping {
      galloping = false
      for i in 0..<count where searches[i].step != 0 {
        let s = searches[i]
        let n = s.span
        if s.step > 0 {
          // The answer is in base ..< base + span, and the element before base is below the key.
          let near = s.step - 1
          let far = 2 * s.step - 1
          let nearBelow = near < n && s.base[near] < s.key
          let farBelow = far < n && s.base[far] < s.key
          if near >= n {
            searches[i].step = 0
          } else if !nearBelow {
            searches[i].span = near
            searches[i].step = 0
          } else if far >= n {
            searches[i].base = s.base + near + 1
            searches[i].span = n - near - 1
            searches[i].step = 0
          } else if !farBelow {
            searches[i].base = s.base + near + 1
            searches[i].span = far - near - 1
            searches[i].step = 0
          } else {
            searches[i].base = s.base + far + 1
            searches[i].span = n - far - 1
            searches[i].step = 4 * s.step
            galloping = true
          }
        } else {
          // The answer is in base ..< base + span, and the element at base + span is not below the key.
          let near = n + s.step
          let far = n + 2 * s.step
          let nearBelow = near >= 0 && s.base[near] < s.key
          let farBelow = far >= 0 && s.base[far] < s.key
          if near < 0 {
            searches[i].step = 0
          } else if nearBelow {
            searches[i].base = s.base + near + 1
            searches[i].span = n - near - 1
            searches[i].step = 0
          } else if far < 0 {
            searches[i].span = near
            searches[i].step = 0
          } else if farBelow {
            searches[i].base = s.base + far + 1
            searches[i].span = near - far - 1
            searches[i].step = 0
          } else {
            searches[i].span = far
            searches[i].step = 4 * s.step
            galloping = true
          }
        }
      }
    }
    var searching = true
    while searching {
      searching = false
      for i in 0..<count where searches[i].span > 1 {
        let half = searches[i].span >> 1
        let base = searches[i].base
        searches[i].base = base[half] < searches[i].key ? base + half : base
        searches[i].span -= half
        searching = true
      }
    }
    for i in 0..<count where searches[i].span == 1 {
      if searches[i].base[0] < searches[i].key { searches[i].base += 1 }
    }
  }

  /// After `run`: the index in its list of the first element not below the key of search `i` (the list's count when
  /// there is none).
  @inline(__always)
  func lowerBound(_ i: Int) -> Int { searches[i].start.distance(to: searches[i].base) }

  /// One search on its own, where the next one depends on its answer: the index of the first element of `list`
  /// (sorted) not below `key`. Binary search down to `MatcherTuning.scannedPostings`, then a scan of that stretch a cache line at a
  /// time, whose loads do not depend on each other (so that their misses overlap, and the hardware prefetcher follows
  /// them), then within the line.
  ///
  /// With a `guess` (where the answer is likely to be), the search first brackets the answer by steps from the guess
  /// that double, from a cache line: a good guess leaves a line or two to scan.
  @inline(__always)
  static func lowerBound(of key: UInt32, in list: UnsafeBufferPointer<UInt32>, guess: Int? = nil) -> Int {
    // The answer lies in lo...end.
    var lo = 0
    var end = list.count
    if let guess {
      let g = min(max(guess, 0), end)
      var step = lineElements
      if g < end && list[g] < key {
        lo = g + 1
        while lo + step <= end {
          guard list[lo + step - 1] < key else {
            end = lo + step - 1
            break
          }
          lo += step
          step <<= 1
        }
      } else {
        end = g
        while end - step >= 0 {
          guard list[end - step] >= key else {
            lo = end - step + 1
            break
          }
          end -= step
          step <<= 1
        }
      }
    }
    while end - lo > MatcherTuning.scannedPostings {
      let middle = lo + (end - lo) / 2
      if list[middle] < key { lo = middle + 1 } else { end = middle }
    }
    while lo + lineElements <= end && list[lo + lineElements - 1] < key { lo += lineElements }
    while lo < end && list[lo] < key { lo += 1 }
    return lo
  }

  /// Postings per 64-byte cache line.
  private static let lineElements = 16

  private func grow() {
    let bigger = UnsafeMutablePointer<Search>.allocate(capacity: capacity * 2)
    bigger.moveInitialize(from: searches, count: count)
    searches.deallocate()
    searches = bigger
    capacity *= 2
  }
}
