import Common

/// Tracks cut out of a catalog's frame axis: each removed track's span (its frames and the gap after it) goes, and
/// every later frame moves down by the spans cut before it. In a catalog laid out with nothing but the gap between
/// tracks, as `CatalogBuilder` lays them, the kept tracks then lie where a full layout of them puts them, so their
/// postings can be moved instead of rebuilt (`IndexMerge`).
struct AxisCut: Sendable {
  /// The cut spans' first frames, ascending.
  private let starts: [UInt32]
  /// Each cut span's end (its first frame not cut).
  private let ends: [UInt32]
  /// Frames cut up to each span's end, itself included.
  private let shifts: [UInt32]
  /// For each bucket of `2^bucketBits` frames, how many spans start before it, and one more entry for all of them:
  /// the spans that start in a bucket lie between its entry and the next, so that finding a frame's span looks at
  /// those few spans (none or one, mostly) however many tracks are cut.
  private let spansBefore: [UInt32]
  private let bucketBits: UInt32

  /// Buckets of `spansBefore`, at most: 16,384, 64 KB, small enough to stay in a core's level 2 cache beside the
  /// postings streaming past, since the search reads it at random once per posting. Buckets are 4,096 frames (about
  /// 2 minutes, where at most 16 spans of tracks and their gaps start) at least, and 65,536 (35 minutes) on an axis of
  /// 10,000 hours.
  static let maxBuckets = 1 << 14

  /// No cut: every frame stays where it is.
  init() {
    starts = []
    ends = []
    shifts = []
    spansBefore = []
    bucketBits = 0
  }

  /// Cuts `spans`, which must not overlap.
  init(removing spans: [Range<UInt32>]) {
    let sorted = spans.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
    starts = sorted.map(\.lowerBound)
    ends = sorted.map(\.upperBound)
    var cut: UInt32 = 0
    var shifts: [UInt32] = []
    for (i, span) in sorted.enumerated() {
      precondition(i == 0 || span.lowerBound >= sorted[i - 1].upperBound, "cut spans overlap")
      cut += UInt32(span.count)
      shifts.append(cut)
    }
    self.shifts = shifts
    let axisEnd = UInt64(sorted.last?.upperBound ?? 0)
    var bits: UInt32 = 12
    while axisEnd >> UInt64(bits) >= UInt64(Self.maxBuckets) { bits += 1 }
    bucketBits = bits
    // One entry per bucket up to the last span's end, and a last one counting every span.
    var spansBefore = [UInt32](repeating: 0, count: sorted.isEmpty ? 0 : Int(axisEnd >> UInt64(bits)) + 2)
    var j = 0
    for b in spansBefore.indices {
      while j < sorted.count && UInt64(sorted[j].lowerBound) < UInt64(b) << UInt64(bits) { j += 1 }
      spansBefore[b] = UInt32(j)
    }
    self.spansBefore = spansBefore
  }

  /// The span of `track` on its catalog's axis: its frames and the gap after them.
  static func span(of track: CatalogTrack) -> Range<UInt32> {
    track.globalStartFrame..<(track.globalStartFrame + track.frameCount + Catalog.gapFrames)
  }

  var isEmpty: Bool { starts.isEmpty }

  /// Where frame `position` lies once the spans are cut, or nil when it is cut.
  @inline(__always)
  func moved(_ position: UInt32) -> UInt32? {
    if starts.isEmpty { return position }
    // The spans that start at or before `position`: those before its bucket, then those in it up to `position` (a
    // binary search among the spans that start in the bucket). The last of them holds it, or lies wholly before it.
    let bucket = Int(position >> bucketBits)
    var lo = starts.count
    if bucket + 1 < spansBefore.count {
      lo = BinarySearch.partitionPoint(in: Int(spansBefore[bucket])..<Int(spansBefore[bucket + 1])) {
        starts[$0] <= position
      }
    }
    if lo == 0 { return position }
    if position < ends[lo - 1] { return nil }
    return position - shifts[lo - 1]
  }
}
