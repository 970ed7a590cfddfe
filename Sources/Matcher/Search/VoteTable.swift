import CPrefetch

/// The search's vote counters: how many unclaimed matches of the last few seconds lie in each cell of diagonal.
///
/// A cell is 8 frames of diagonal (reference frame − speed × broadcast frame) under one speed hypothesis. Each match
/// votes in two grids, the second shifted by half a cell, so that a cluster narrower than 4 frames falls whole into one
/// cell of one grid. Cells are hashed into byte counters (saturating); unrelated cells that share a counter can only
/// make the search verify a cell for nothing, never hide a cluster. One thread: the matcher's.
final class VoteTable {
  /// Frames of diagonal per cell.
  static let cellFrames = 8
  private let counts: UnsafeMutablePointer<UInt8>
  private let mask: Int
  let slotCount: Int

  /// - Parameter slots: counters, a power of two: enough that the unclaimed matches of the vote window (about
  ///   10,000 a second for a catalog of a few hours) leave most counters near zero.
  init(slots: Int) {
    precondition(slots.nonzeroBitCount == 1)
    slotCount = slots
    mask = slots - 1
    counts = .allocate(capacity: slots)
    counts.initialize(repeating: 0, count: slots)
  }

  deinit { counts.deallocate() }

  /// The counter of cell `cell` of grid `grid` (0 or `shiftedGrid`) under hypothesis `h`.
  @inline(__always)
  func slot(hypothesis h: Int, cell: Int, grid: UInt64) -> Int {
    let c = UInt64(truncatingIfNeeded: cell)
    // Mixed so that nearby cells and hypotheses land far apart; the top bits are the best mixed.
    let mixed = ((c &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(h) &* 0xC2B2_AE3D_27D4_EB4F) ^ grid) &* 0xD6E8_FEB8_6659_FD93
    return Int(truncatingIfNeeded: mixed >> 40) & mask
  }

  /// The grid shifted by half a cell.
  static let shiftedGrid: UInt64 = 0x5555_5555

  /// The two counters a match on diagonal `d` under hypothesis `h` votes in.
  @inline(__always)
  func slots(hypothesis h: Int, diagonal d: Int) -> (Int, Int) {
    (
      slot(hypothesis: h, cell: d >> 3, grid: 0),
      slot(hypothesis: h, cell: (d + Self.cellFrames / 2) >> 3, grid: Self.shiftedGrid)
    )
  }

  /// Adds a vote; returns the counter's new value.
  @inline(__always)
  func vote(_ slot: Int) -> Int {
    if counts[slot] < .max { counts[slot] += 1 }
    return Int(counts[slot])
  }

  /// Asks for a counter's cache line ahead of its use (a vote, or a vote taken back), without waiting for it.
  @inline(__always)
  func prefetch(_ slot: Int) { cprefetch_read(counts + slot) }

  /// The votes a counter holds.
  func votes(in slot: Int) -> Int { Int(counts[slot]) }

  /// Takes back a vote (an expired or claimed match).
  @inline(__always)
  func unvote(_ slot: Int) {
    if counts[slot] > 0 { counts[slot] -= 1 }
  }

  func removeAll() { counts.update(repeating: 0, count: slotCount) }
}
