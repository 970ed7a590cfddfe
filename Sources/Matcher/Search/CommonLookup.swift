/// A lookup of the current broadcast peak whose hash is common in the catalog: one anchor's pair, under every speed
/// hypothesis that gives it this hash (nearby speeds round a short pair's distance alike), held until every anchor of
/// the peak has been looked up, to be searched two by two in the triplet index.
struct CommonLookup {
  var anchorFrame: Int32
  var hash: UInt32
  var hypotheses: HypothesisSet
}
