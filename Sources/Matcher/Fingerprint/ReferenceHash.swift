/// One hash of a reference track: a pair of peaks packed by `HashLayout`, at the anchor's frame.
struct ReferenceHash: Sendable, Equatable, Comparable {
  var hash: UInt32
  /// Anchor frame, from the track's start.
  var frame: UInt32

  static func < (l: ReferenceHash, r: ReferenceHash) -> Bool {
    l.hash != r.hash ? l.hash < r.hash : l.frame < r.frame
  }
}
