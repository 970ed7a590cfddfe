import CPrefetch

/// The matches of the last few seconds that no running play claimed, oldest first: the search's memory.
///
/// A ring of matches, numbered by 32-bit absolute indices that wrap around. Each match is also linked to the previous
/// match that voted in the same cell, so that verifying a cell walks only that cell's matches. A link is followed only
/// while it points into the live part of the ring. One thread: the matcher's.
final class MatchQueue {
  struct Match {
    var anchorFrame: Int32
    var targetFrame: Int32
    var reference: UInt32
    /// Absolute index of the previous match in the same cell of the first grid.
    var previousInCell: UInt32 = 0
    /// The two vote counters the match voted in (`VoteTable.slots`), so that its votes are taken back without working
    /// them out again.
    var firstSlot: UInt32
    var secondSlot: UInt32
    var hypothesis: UInt8
    /// Taken by a play when it started: no longer counts for new plays.
    var claimed = false
    /// Its reference frame is known to within a frame only: the second pair of a triplet hit that was not confirmed
    /// in the pair index (`StreamMatcher.confirmsTripletHits`).
    var approximate = false

    init(anchorFrame: Int32, targetFrame: Int32, reference: UInt32, hypothesis: UInt8, slots: (Int, Int)) {
      self.anchorFrame = anchorFrame
      self.targetFrame = targetFrame
      self.reference = reference
      self.hypothesis = hypothesis
      firstSlot = UInt32(truncatingIfNeeded: slots.0)
      secondSlot = UInt32(truncatingIfNeeded: slots.1)
    }
  }

  private var ring: UnsafeMutablePointer<Match>
  private var capacity: Int
  /// Absolute index of the oldest live match, and of the next one to be appended.
  private var tail: UInt32 = 1 << 31
  private var head: UInt32 = 1 << 31
  /// Absolute index of the newest match per cell; stale entries point outside the live range.
  private var newestInCell: UnsafeMutablePointer<UInt32>
  private let cells: Int

  /// - Parameter cells: number of cell lists, a power of two; a caller's cell number is taken modulo it (lists may
  ///   mix cells; callers check what they walk).
  init(cells: Int, capacity: Int = 1 << 17) {
    precondition(cells.nonzeroBitCount == 1)
    self.cells = cells
    self.capacity = capacity
    ring = .allocate(capacity: capacity)
    newestInCell = .allocate(capacity: cells)
    newestInCell.initialize(repeating: 0, count: cells)
  }

  deinit {
    ring.deallocate()
    newestInCell.deallocate()
  }

  var count: Int { Int(head &- tail) }

  @inline(__always)
  private func isLive(_ i: UInt32) -> Bool { head &- i &- 1 < head &- tail }

  subscript(absolute: UInt32) -> Match {
    get { ring[Int(absolute) & (capacity - 1)] }
    set { ring[Int(absolute) & (capacity - 1)] = newValue }
  }

  func append(_ m: Match, cell: Int) {
    if count == capacity { grow() }
    var m = m
    let list = cell & (cells - 1)
    m.previousInCell = newestInCell[list]
    newestInCell[list] = head
    ring[Int(head) & (capacity - 1)] = m
    head &+= 1
  }

  /// Asks for the cache line of a cell's list head ahead of `append`, without waiting for it.
  @inline(__always)
  func prefetch(cell: Int) { cprefetch_read(newestInCell + (cell & (cells - 1))) }

  private func grow() {
    let bigger = UnsafeMutablePointer<Match>.allocate(capacity: capacity * 2)
    var i = tail
    while i != head {
      bigger[Int(i) & (capacity * 2 - 1)] = ring[Int(i) & (capacity - 1)]
      i &+= 1
    }
    ring.deallocate()
    ring = bigger
    capacity *= 2
  }

  /// Live matches of one cell, newest first.
  func forEachInCell(_ cell: Int, _ body: (UInt32, Match) -> Void) {
    var i = newestInCell[cell & (cells - 1)]
    var steps = 0
    while isLive(i) && steps < capacity {
      let m = self[i]
      body(i, m)
      // Links only ever point backwards; anything else is a stale link from before a wrap.
      guard i &- m.previousInCell &- 1 < head &- tail else { return }
      i = m.previousInCell
      steps += 1
    }
  }

  /// Live matches of several cells' lists, each list walked once: cells that share a list (`cells` lists hold every
  /// cell) would otherwise give its matches twice. Newest first within each list.
  func forEachInCells(_ cellNumbers: [Int], _ body: (UInt32, Match) -> Void) {
    for k in cellNumbers.indices {
      let list = cellNumbers[k] & (cells - 1)
      guard !cellNumbers[..<k].contains(where: { $0 & (cells - 1) == list }) else { continue }
      forEachInCell(list, body)
    }
  }

  /// Removes and returns the oldest match when `isExpired` says so.
  func popFirst(if isExpired: (Match) -> Bool) -> Match? {
    guard tail != head else { return nil }
    let m = self[tail]
    guard isExpired(m) else { return nil }
    tail &+= 1
    return m
  }

  /// Removes the matches anchored before `horizon` from the front, oldest first, and takes back from `votes` the votes
  /// of those that no play claimed: `popFirst` and an unvote of each, in one loop over the ring that asks for the
  /// counters of the match a few places ahead, so that their misses overlap.
  func expire(before horizon: Int32, votes: VoteTable) {
    while tail != head {
      let ahead = tail &+ Self.expiryPrefetchDistance
      if isLive(ahead) {
        let next = ring[Int(ahead) & (capacity - 1)]
        votes.prefetch(Int(next.firstSlot))
        votes.prefetch(Int(next.secondSlot))
      }
      let m = ring[Int(tail) & (capacity - 1)]
      guard m.anchorFrame < horizon else { return }
      if !m.claimed {
        votes.unvote(Int(m.firstSlot))
        votes.unvote(Int(m.secondSlot))
      }
      tail &+= 1
    }
  }

  /// How many matches ahead `expire` asks for the vote counters it will take votes back from.
  private static let expiryPrefetchDistance: UInt32 = 8

  func removeAll() {
    tail = head
  }
}
