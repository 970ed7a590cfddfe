/// Which of one broadcast peak's catalog matches are backed by a second anchor: the filter in front of the search.
///
/// A broadcast peak is the target of a pair with each earlier peak in its zone, and each pair's postings place the
/// target somewhere in the catalog: at the posting's anchor frame plus the pair's distance. In the reference, a peak
/// is the target of the pairs of about three anchors, so where the broadcast is a catalog track, the pairs of two or
/// more anchors place the target at the same reference frame (within a frame of rounding), under the same speed
/// hypothesis. A chance match almost never has such a partner: two postings of unrelated hashes land within a frame
/// of each other about once in (catalog frames ÷ matches of the peak) tries.
///
/// A table of stamped buckets, reused for every peak (`begin()` invalidates it in O(1)). Two frames within one of each
/// other share a bucket of one of two grids offset by a frame. A bucket collision between unrelated keys can only pass
/// a match that should have been dropped, never drop one that agrees. One thread: the matcher's.
final class TargetAgreement {
  /// One bucket: the peak it was last used for, and the first anchor that placed the peak in it (`agreed` once a
  /// second anchor did).
  private struct Bucket {
    var stamp: UInt32
    var anchorFrame: Int32
  }
  private static let agreed = Int32.min
  private let mask: Int
  private let buckets: UnsafeMutablePointer<Bucket>
  private var serial: UInt32 = 0

  /// - Parameter buckets: table size, rounded up to a power of two; a few times the matches one peak can collect.
  init(buckets count: Int) {
    let size = max(64, 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount))
    mask = size - 1
    buckets = .allocate(capacity: size)
    buckets.initialize(repeating: Bucket(stamp: 0, anchorFrame: 0), count: size)
  }

  deinit { buckets.deallocate() }

  /// Forgets the previous peak's matches.
  func begin() {
    serial &+= 1
    if serial == 0 {
      buckets.update(repeating: Bucket(stamp: 0, anchorFrame: 0), count: mask + 1)
      serial = 1
    }
  }

  @inline(__always)
  private func bucket(hypothesis: Int, cell: UInt32, grid: UInt64) -> Int {
    let k = (UInt64(cell) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(hypothesis) &* 0xC2B2_AE3D_27D4_EB4F) ^ grid
    return Int(truncatingIfNeeded: (k &* 0xD6E8_FEB8_6659_FD93) >> 32) & mask
  }

  @inline(__always)
  private func note(bucket b: Int, anchorFrame: Int32) {
    if buckets[b].stamp != serial {
      buckets[b] = Bucket(stamp: serial, anchorFrame: anchorFrame)
    } else if buckets[b].anchorFrame != anchorFrame {
      buckets[b].anchorFrame = Self.agreed
    }
  }

  /// Records that the pair anchored at `anchorFrame` places the peak at reference frame `target` under hypothesis `h`;
  /// returns the match's two buckets, for `isAgreed`.
  @inline(__always)
  func note(hypothesis h: Int, target: UInt32, anchorFrame: Int32) -> (UInt32, UInt32) {
    let a = bucket(hypothesis: h, cell: target >> 1, grid: 0)
    let b = bucket(hypothesis: h, cell: (target &+ 1) >> 1, grid: 0x5555_5555)
    note(bucket: a, anchorFrame: anchorFrame)
    note(bucket: b, anchorFrame: anchorFrame)
    return (UInt32(a), UInt32(b))
  }

  /// Whether another anchor placed the peak in either of a match's buckets (after every match of the peak was noted).
  @inline(__always)
  func isAgreed(_ buckets: (UInt32, UInt32)) -> Bool {
    self.buckets[Int(buckets.0)].anchorFrame == Self.agreed || self.buckets[Int(buckets.1)].anchorFrame == Self.agreed
  }
}
