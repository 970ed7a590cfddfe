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

  /// No cut: every frame stays where it is.
  init() {
    starts = []
    ends = []
    shifts = []
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
    // The spans that start at or before `position`: the last of them holds it, or lies wholly before it.
    var lo = 0
    var hi = starts.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if starts[mid] <= position { lo = mid + 1 } else { hi = mid }
    }
    if lo == 0 { return position }
    if position < ends[lo - 1] { return nil }
    return position - shifts[lo - 1]
  }
}
