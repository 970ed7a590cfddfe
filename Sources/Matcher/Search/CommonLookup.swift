/// A lookup of the current broadcast peak whose hash is common in the catalog: one anchor's pair under one speed
/// hypothesis, held until every anchor of the peak has been looked up, to be searched two by two in the triplet index.
struct CommonLookup {
  var hypothesis: UInt8
  var anchorFrame: Int32
  var hash: UInt32
}
