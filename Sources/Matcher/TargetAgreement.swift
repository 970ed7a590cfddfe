/// Which of one broadcast peak's catalog matches are backed by a second anchor: the filter in front of the search.
///
/// A broadcast peak is the target of a pair with each earlier peak in its zone, and each pair's postings place the
/// target somewhere in the catalog: at the posting's anchor frame plus the pair's distance. In the reference, a peak
/// is the target of the pairs of about three anchors, so where the broadcast is a catalog track, the pairs of two or
/// more anchors place the target at the same reference frame (within a frame of rounding), under the same speed
/// hypothesis. A chance match almost never has such a partner: two postings of unrelated hashes land within a frame
/// of each other about once in (catalog frames ÷ matches of the peak) tries.
///
/// An open-addressed table of stamped buckets, reused for every peak (`begin()` invalidates it in O(1)); each bucket
/// holds the full key of a (hypothesis, reference frame ÷ 2, grid) cell, so unrelated cells never agree. Two frames
/// within one of each other share a cell of one of two grids offset by a frame. A cell that finds no free bucket
/// among its first few (a table overfull for one peak) is not recorded, and its matches are dropped as if nothing
/// agreed with them. One thread: the matcher's.
final class TargetAgreement {
  /// One bucket: the peak it was last used for, the cell's key, and the first anchor that placed the peak in the cell
  /// (`agreed` once a second anchor did).
  private struct Bucket {
    var stamp: UInt32
    var key: UInt32
    var anchorFrame: Int32
  }
  private static let agreed = Int32.min
  /// Buckets tried for one cell before it is given up.
  private static let probes = 4
  private let mask: Int
  private let buckets: UnsafeMutablePointer<Bucket>
  private var serial: UInt32 = 0

  /// - Parameter buckets: table size, rounded up to a power of two; a few times the cells one peak can fill.
  init(buckets count: Int) {
    let size = max(64, 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount))
    mask = size - 1
    buckets = .allocate(capacity: size + Self.probes)
    buckets.initialize(repeating: Bucket(stamp: 0, key: 0, anchorFrame: 0), count: size + Self.probes)
  }

  deinit { buckets.deallocate() }

  /// Forgets the previous peak's matches.
  func begin() {
    serial &+= 1
    if serial == 0 {
      buckets.update(repeating: Bucket(stamp: 0, key: 0, anchorFrame: 0), count: mask + 1 + Self.probes)
      serial = 1
    }
  }

  /// The bucket of a cell for this peak, claimed for it if free; -1 when the first `probes` buckets are taken.
  @inline(__always)
  private func bucket(hypothesis: Int, cell: UInt32, grid: UInt64) -> Int {
    let k = cellHash(cell: UInt64(cell), hypothesis: hypothesis, grid: grid)
    let key = UInt32(truncatingIfNeeded: k)
    let home = Int(truncatingIfNeeded: k >> 32) & mask
    for b in home..<(home + Self.probes) {
      if buckets[b].stamp != serial {
        buckets[b] = Bucket(stamp: serial, key: key, anchorFrame: -1)
        return b
      }
      if buckets[b].key == key { return b }
    }
    return -1
  }

  @inline(__always)
  private func note(bucket b: Int, anchorFrame: Int32) {
    guard b >= 0 else { return }
    if buckets[b].anchorFrame == -1 {
      buckets[b].anchorFrame = anchorFrame
    } else if buckets[b].anchorFrame != anchorFrame {
      buckets[b].anchorFrame = Self.agreed
    }
  }

  /// Records that the pair anchored at `anchorFrame` places the peak at reference frame `target` under hypothesis `h`;
  /// returns the match's two buckets, for `isAgreed`.
  @inline(__always)
  func note(hypothesis h: Int, target: UInt32, anchorFrame: Int32) -> (Int32, Int32) {
    let a = bucket(hypothesis: h, cell: target >> 1, grid: 0)
    let b = bucket(hypothesis: h, cell: (target &+ 1) >> 1, grid: 0x5555_5555)
    note(bucket: a, anchorFrame: anchorFrame)
    note(bucket: b, anchorFrame: anchorFrame)
    return (Int32(a), Int32(b))
  }

  /// Whether another anchor placed the peak in either of a match's cells (after every match of the peak was noted).
  @inline(__always)
  func isAgreed(_ buckets: (Int32, Int32)) -> Bool {
    (buckets.0 >= 0 && self.buckets[Int(buckets.0)].anchorFrame == Self.agreed)
      || (buckets.1 >= 0 && self.buckets[Int(buckets.1)].anchorFrame == Self.agreed)
  }
}
