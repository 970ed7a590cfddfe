/// The matches of the last few seconds that no running play claimed, oldest first: the search's memory.
///
/// Each match is also linked to the previous match that voted in the same cell, so that verifying a cell walks only
/// that cell's matches.
struct MatchQueue {
  struct Match {
    var anchorFrame: Int32
    var targetFrame: Int32
    var reference: UInt32
    var hypothesis: UInt8
    /// Taken by a play when it started: no longer counts for new plays.
    var claimed = false
    /// Absolute index of the previous match in the same cell of the first grid, or -1.
    var previousInCell: Int32 = -1
  }

  private var items: [Match] = []
  /// Absolute index of `items[0]`.
  private var base = 0
  private var head = 0
  /// Absolute index of the newest match per cell (first grid), or -1. Absolute indices are 32-bit: the queue is
  /// renumbered (`rebase`) long before they run out.
  private var newestInCell: [Int32]

  init(cells: Int) { newestInCell = [Int32](repeating: -1, count: cells) }

  var count: Int { items.count - head }
  /// Absolute index of the oldest live match.
  var firstLive: Int { base + head }

  subscript(absolute: Int) -> Match {
    get { items[absolute - base] }
    set { items[absolute - base] = newValue }
  }

  mutating func append(_ m: Match, cell: Int) {
    var m = m
    m.previousInCell = newestInCell[cell]
    newestInCell[cell] = Int32(truncatingIfNeeded: base + items.count)
    items.append(m)
  }

  /// Live matches of one cell, newest first.
  func forEachInCell(_ cell: Int, _ body: (Int, Match) -> Void) {
    var i = Int(newestInCell[cell])
    while i >= base + head {
      let m = items[i - base]
      body(i, m)
      i = Int(m.previousInCell)
    }
  }

  /// Renumbers the live matches from 0, so that absolute indices stay far below 2³¹.
  private mutating func rebase() {
    let shift = Int32(base)
    for i in newestInCell.indices where newestInCell[i] >= 0 {
      newestInCell[i] = newestInCell[i] >= shift ? newestInCell[i] - shift : -1
    }
    for i in items.indices where items[i].previousInCell >= 0 {
      items[i].previousInCell = items[i].previousInCell >= shift ? items[i].previousInCell - shift : -1
    }
    base = 0
  }

  /// Removes and returns the oldest match when `isExpired` says so.
  mutating func popFirst(if isExpired: (Match) -> Bool) -> Match? {
    guard head < items.count, isExpired(items[head]) else { return nil }
    let m = items[head]
    head += 1
    if head > 8192 && head * 2 > items.count {
      items.removeFirst(head)
      base += head
      head = 0
      if base > 1 << 30 { rebase() }
    }
    return m
  }
}
