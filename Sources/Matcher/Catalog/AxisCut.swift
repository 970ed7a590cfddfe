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
  /// For each bucket of `2^bucketBits` frames, how many spans start before it: where the search for a frame in it
  /// begins, so that finding a frame's span costs a step or two however many tracks are cut.
  private let spansBefore: [UInt32]

  /// Frames a bucket of `spansBefore` covers: 4,096 (about 2 minutes), so that at most 16 spans (of a track with no
  /// frames, and its gap) start in one, and an axis of 2^32 frames takes 4 MB of buckets. Frames.
  static let bucketBits: UInt32 = 12

  /// No cut: every frame stays where it is.
  init() {
    starts = []
    ends = []
    shifts = []
    spansBefore = []
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
    let buckets = Int((sorted.last?.upperBound ?? 0) >> Self.bucketBits) + 1
    var spansBefore = [UInt32](repeating: 0, count: sorted.isEmpty ? 0 : buckets)
    var j = 0
    for b in spansBefore.indices {
      while j < sorted.count && UInt64(sorted[j].lowerBound) < UInt64(b) << UInt64(Self.bucketBits) { j += 1 }
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
    // The spans that start at or before `position`: those before its bucket, then those in it up to `position`. The
    // last of them holds it, or lies wholly before it.
    let bucket = Int(position >> Self.bucketBits)
    var lo = bucket < spansBefore.count ? Int(spansBefore[bucket]) : starts.count
    while lo < starts.count && starts[lo] <= position { lo += 1 }
    if lo == 0 { return position }
    if position < ends[lo - 1] { return nil }
    return position - shifts[lo - 1]
  }
}
