/// The broadcast's recent lookups of common hashes, by speed hypothesis, over the vote window: what verification
/// needs to gather every match on a candidate's line, not only those that voted.
///
/// A match of a common hash (more than `MatcherTuning.maxPostingsSearchedAlone` postings) votes only when a second
/// anchor agrees with it through the triplet index; where the broadcast is a catalog track, most of its true matches
/// of common hashes have no such partner and never vote. Once the agreeing ones make a cell a candidate, the line is
/// known to within the cluster's radius, and the postings of these lookups near it are the rest of its matches: a
/// binary search each (`CatalogIndex.forEachPosting(of:in:)`). Without them, a catalog of hundreds of hours, whose
/// hashes are nearly all common, reached `minMatches` seconds later than a catalog of a few hours.
///
/// One thread: the matcher's.
final class CommonLookupHistory {
  /// One lookup under one hypothesis: the pair's anchor and target peaks and its hash.
  struct Entry {
    var anchorFrame: Int32
    var targetFrame: Int32
    var hash: UInt32
  }

  /// Entries of each hypothesis in the order they came (anchor frames nearly in order: a peak's anchors precede it
  /// by at most a pair span); those before `starts[h]` are expired.
  private var entries: [[Entry]]
  private var starts: [Int]

  init(hypotheses: Int) {
    entries = [[Entry]](repeating: [], count: hypotheses)
    starts = [Int](repeating: 0, count: hypotheses)
  }

  /// Records the current peak's common lookups (`targetFrame`), each under every one of its hypotheses.
  func append(_ lookups: some Collection<CommonLookup>, targetFrame: Int32) {
    entries.withUnsafeMutableBufferPointer { lists in
      for l in lookups {
        for h in l.hypotheses {
          lists[h].append(Entry(anchorFrame: l.anchorFrame, targetFrame: targetFrame, hash: l.hash))
        }
      }
    }
  }

  /// Forgets the entries whose target peak is before `horizon` (their anchors are older still), as the vote window
  /// forgets its matches.
  func expire(before horizon: Int32) {
    for h in entries.indices {
      var s = starts[h]
      while s < entries[h].count && entries[h][s].targetFrame < horizon { s += 1 }
      if s > 4096 && s * 2 > entries[h].count {
        entries[h].removeFirst(s)
        s = 0
      }
      starts[h] = s
    }
  }

  func removeAll() {
    for h in entries.indices {
      entries[h].removeAll(keepingCapacity: true)
      starts[h] = 0
    }
  }

  /// Calls `body` with each live entry of hypothesis `h`.
  @inline(__always)
  func forEach(hypothesis h: Int, _ body: (Entry) -> Void) {
    let list = entries[h]
    for i in starts[h]..<list.count { body(list[i]) }
  }
}
