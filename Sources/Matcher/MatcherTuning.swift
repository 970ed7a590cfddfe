/// The stream matcher's fixed tuning, in one place: each constant with its unit and why it has its value.
///
/// Settings a station may change per channel are in `MatcherSettings`; these are properties of the method.
enum MatcherTuning {
  /// A hash with more postings than this is common in the catalog: its matches are searched for new plays only when a
  /// second anchor places the same broadcast peak at the same reference frame (`TargetAgreement`). Below it, every
  /// match votes, as it always has for catalogs of a few hours (whose stop-hash cap keeps every list this short), so
  /// their latency is unchanged; a catalog of hundreds of hours has hundreds of postings per hash, nearly all chance.
  static let maxPostingsSearchedAlone = 16

  /// A play whose line has had no sustained matches for `maxGapSeconds` stays open this long (while its line is still
  /// inside the track and no other item has come on), so that an airing hidden by noise, a dropout or a voice-over
  /// for up to two minutes and then heard again on the same line is one play, never two. Seconds.
  static let maxSilentLineSeconds = 120.0

  /// Vote counters per matcher (`VoteTable`): one byte per posting of the catalog over 8, between 256 KB (a catalog of
  /// a few hours: the unclaimed matches of the vote window, about 10,000 a second, leave most counters near zero, and
  /// the table stays in a core's L2 cache) and 4 MB. Unrelated cells that share a counter make the search verify cells
  /// for nothing: with 256 KB against a 33 h catalog, verification took a fifth of the scan's time.
  static func voteSlots(postings: Int) -> Int { powerOfTwo(atLeast: postings / 8, from: 1 << 18, to: 1 << 22) }

  /// Cell lists of the match queue (`MatchQueue`): each mixes cells, and verifying a cell walks its list, so lists must
  /// stay short as the catalog's matches grow; 32 KB (L1) for a catalog of a few hours, up to 1 MB.
  static func queueCellLists(postings: Int) -> Int { powerOfTwo(atLeast: postings / 64, from: 1 << 13, to: 1 << 18) }

  /// Matches of one broadcast peak that `TargetAgreement` makes room for at start: the peak's lookups (fan-out ×
  /// hypotheses) return on average about half the stop-hash cap each; a peak with more grows the buffers once.
  static func agreementCapacity(lookupsPerPeak: Int, stopHashCap: Int) -> Int {
    min(1 << 20, lookupsPerPeak * max(12, stopHashCap) / 2)
  }

  private static func powerOfTwo(atLeast n: Int, from low: Int, to high: Int) -> Int {
    var p = low
    while p < n && p < high { p <<= 1 }
    return p
  }

  /// A cell that failed verification is verified again after this many more votes, so that a cluster that grows
  /// slowly (a sparse or quiet intro, a voice over it) is reported as soon as it passes. Every 6 votes left such a
  /// cluster unreported for up to 5 more matches (median latency on `hard` 0.1–0.8 s later); every vote gave the same
  /// latency as every 2, for twice the verifications of clusters that never pass (a repeated section beside a running
  /// play).
  static let reverifyEveryVotes = 2
}
