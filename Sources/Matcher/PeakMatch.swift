/// A match of the current broadcast peak, held until every anchor of the peak has been looked up.
struct PeakMatch {
  var hypothesis: UInt8
  var anchorFrame: Int32
  var reference: UInt32
  /// The `TargetAgreement` buckets of where the match places the peak in the catalog.
  var buckets: (Int32, Int32)
}
