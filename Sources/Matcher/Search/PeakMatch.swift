/// A match of the current broadcast peak, held until every anchor of the peak has been looked up.
struct PeakMatch {
  var hypothesis: UInt8
  var anchorFrame: Int32
  var reference: UInt32
  /// The reference frame where the match places the peak: the posting's anchor frame plus the pair's distance.
  var target: UInt32
}
