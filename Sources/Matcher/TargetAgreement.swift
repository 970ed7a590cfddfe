/// Which of one broadcast peak's catalog matches are backed by a second anchor: the filter in front of the search.
///
/// A broadcast peak is the target of a pair with each earlier peak in its zone, and each pair's postings place the
/// target somewhere in the catalog: at the posting's anchor frame plus the pair's distance. In the reference, a peak
/// is the target of the pairs of about three anchors, so where the broadcast is a catalog track, the pairs of two or
/// more anchors place the target at the same reference frame (within a frame of rounding), under the same speed
/// hypothesis. A chance match almost never has such a partner: two postings of unrelated hashes land within a frame
/// of each other about once in (catalog frames ÷ matches per peak) tries, so the filter passes a number of chance
/// matches that grows with the square of the postings per lookup over the catalog's length, while the search without
/// it voted for every one of them, a number that grows with the catalog.
///
/// A table of stamped buckets, reused for every peak (`begin()` invalidates it in O(1)). Two frames within one of each
/// other share a bucket of one of two grids offset by a frame. A bucket collision between unrelated keys can only pass
/// a match that should have been dropped, never drop one that agrees. One thread: the matcher's.
final class TargetAgreement {
  private let mask: Int
  private let stamps: UnsafeMutablePointer<UInt32>
  private let firstAnchors: UnsafeMutablePointer<Int32>
  private let agreed: UnsafeMutablePointer<Bool>
  private var serial: UInt32 = 0

  /// - Parameter buckets: table size, rounded up to a power of two; a few times the matches one peak can collect.
  init(buckets: Int) {
    let size = max(64, 1 << (Int.bitWidth - (buckets - 1).leadingZeroBitCount))
    mask = size - 1
    stamps = .allocate(capacity: size)
    stamps.initialize(repeating: 0, count: size)
    firstAnchors = .allocate(capacity: size)
    firstAnchors.initialize(repeating: 0, count: size)
    agreed = .allocate(capacity: size)
    agreed.initialize(repeating: false, count: size)
  }

  deinit {
    stamps.deallocate()
    firstAnchors.deallocate()
    agreed.deallocate()
  }

  /// Forgets the previous peak's matches.
  func begin() {
    serial &+= 1
    if serial == 0 {
      stamps.update(repeating: 0, count: mask + 1)
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
    if stamps[b] != serial {
      stamps[b] = serial
      firstAnchors[b] = anchorFrame
      agreed[b] = false
    } else if firstAnchors[b] != anchorFrame {
      agreed[b] = true
    }
  }

  /// Records that the pair anchored at `anchorFrame` places the peak at reference frame `target` under hypothesis `h`.
  @inline(__always)
  func note(hypothesis h: Int, target: UInt32, anchorFrame: Int32) {
    note(bucket: bucket(hypothesis: h, cell: target >> 1, grid: 0), anchorFrame: anchorFrame)
    note(bucket: bucket(hypothesis: h, cell: (target &+ 1) >> 1, grid: 0x5555_5555), anchorFrame: anchorFrame)
  }

  /// Whether another anchor's pair placed the peak within a frame of `target` under hypothesis `h` (after every match
  /// of the peak was noted).
  @inline(__always)
  func isAgreed(hypothesis h: Int, target: UInt32) -> Bool {
    let a = bucket(hypothesis: h, cell: target >> 1, grid: 0)
    if stamps[a] == serial && agreed[a] { return true }
    let b = bucket(hypothesis: h, cell: (target &+ 1) >> 1, grid: 0x5555_5555)
    return stamps[b] == serial && agreed[b]
  }
}
