/// Matches that verification gathers around a diagonal (`StreamMatcher+Verification`), in four parallel arrays: their
/// places in the match queue, broadcast (anchor) frames, reference frames and target frames.
struct GatheredMatches {
  var indices: [UInt32] = []
  var xs: [Double] = []
  var ys: [Double] = []
  var targets: [Int32] = []

  mutating func append(index: UInt32, anchorFrame: Int32, targetFrame: Int32, reference: UInt32) {
    indices.append(index)
    xs.append(Double(anchorFrame))
    ys.append(Double(reference))
    targets.append(targetFrame)
  }

  /// Empties the arrays, keeping their buffers.
  mutating func removeAll() {
    indices.removeAll(keepingCapacity: true)
    xs.removeAll(keepingCapacity: true)
    ys.removeAll(keepingCapacity: true)
    targets.removeAll(keepingCapacity: true)
  }
}
