import Common
import Foundation

/// A catalog edited without being laid out anew, as `CatalogBuilder` edits an existing one: its removed tracks cut
/// from the frame axis (`AxisCut`), the tracks added laid after every track kept, the stop-hash cap, and the merges of
/// both indexes (`IndexMerge`), which are written straight into the new file (`write(to:progress:)`) or made in memory
/// (`catalog()`).
///
/// Written straight, the new indexes never sit in memory beside the old ones: adding a song to the 10,000-hour
/// catalog needed 4.4 GB of memory besides the mapped file, and most of its time went into the kernel's zeroing of
/// that memory; removing one laid out and indexed every track again, 14.4 GB and nine minutes (docs/benchmarks.md).
final class CatalogEdit {
  let base: Catalog
  let tracks: [CatalogTrack]
  let stopHashCap: Int
  let cut: AxisCut
  let pairs: IndexMerge
  /// The added tracks' agreeing pairs, as postings of `base`'s triplet index, merged into it less the cut tracks'; nil
  /// when it has none (format version 1) or its position bits do not hold them, and the triplet index is derived
  /// again from the whole pair index.
  let triplets: (added: [(hash: UInt32, position: UInt32)], merge: IndexMerge)?
  /// Each track's global start frame.
  private let starts: [UInt32]

  /// - Parameter tracks: the kept tracks of `base`, moved down the axis by `cut`, then the added ones.
  /// - Parameter entries: the added tracks' pair postings (hash, global frame), stop hashes left out.
  /// - Parameter dropped: the hashes of `base` that the edited catalog drops as stop hashes.
  /// - Parameter keptCounts: the postings of each hash of `base`'s pair index that `cut` keeps, where the caller has
  ///   counted them (`IndexMerge`).
  init(
    base: Catalog, tracks: [CatalogTrack], cut: AxisCut, entries: [(hash: UInt32, position: UInt32)],
    dropping dropped: Set<UInt32>, keptCounts: [UInt32]? = nil, stopHashCap: Int
  ) {
    self.base = base
    self.tracks = tracks
    self.cut = cut
    starts = tracks.map(\.globalStartFrame)
    self.stopHashCap = stopHashCap
    pairs = IndexMerge(base: base.index, cutting: cut, adding: entries, dropping: dropped, keptCounts: keptCounts)
    let axisEnd = tracks.last.map { UInt64($0.globalStartFrame) + UInt64($0.frameCount) } ?? 0
    triplets = base.triplets.flatMap { old in
      let added = TripletIndex.appendedEntries(entries, to: old, layout: HashLayout(base.parameters))
      let merge = IndexMerge(base: old.index, cutting: cut, adding: added.entries, dropping: [])
      // The kept postings moved down may not fit where the directory shrank: every target lies before the axis end.
      let limit = UInt64(1) << UInt64(merge.positionBits)
      guard merge.positionBits >= 32 || (UInt64(added.largestTarget) < limit && (cut.isEmpty || axisEnd <= limit))
      else { return nil }
      return (added.entries, merge)
    }
  }

  /// The edited catalog in memory.
  func catalog() -> Catalog {
    let index = pairs.materialized()
    let triplets =
      if let triplets { TripletIndex(index: triplets.merge.materialized()) } else {
        TripletIndex.derive(from: index, tracks: tracks, layout: HashLayout(base.parameters))
      }
    return Catalog(
      parameters: base.parameters, tracks: tracks, index: index, stopHashCap: stopHashCap, triplets: triplets)
  }

  /// Writes the edited catalog as `Catalog.write(to:progress:)` does, its indexes merged as they are written; where the
  /// triplet index must be derived again (`triplets` nil), from the catalog made in memory.
  func write(to url: URL, progress: (_ written: Int, _ total: Int) -> Void) throws {
    guard let triplets else {
      try catalog().write(to: url, progress: progress)
      return
    }
    let pairIndex = Catalog.EncodedIndex(pairs)
    let tripletIndex = Catalog.EncodedIndex(triplets.merge)
    try Catalog.writeFile(to: url, progress: progress) { fileBytes, write in
      try Catalog.encode(
        parameters: base.parameters, tracks: tracks, stopHashCap: stopHashCap, pairs: pairIndex,
        triplets: tripletIndex, fileBytes: fileBytes, into: write)
    }
  }

  /// Calls `body` with the global frame of every posting of triplet key `key` (of `base`'s key bits) in the edited
  /// catalog's triplet index, from `base`'s (moved, less the cut tracks') and from `addedByKey`
  /// (`addedTripletsByKey`), without merging them. Only with `triplets`.
  func forEachTriplet(of key: UInt32, addedByKey: [UInt64], _ body: (UInt32) -> Void) {
    base.triplets?.index.forEachPosting(of: key) { if let moved = cut.moved($0) { body(moved) } }
    let first = UInt64(key) << 32
    var lo = BinarySearch.partitionPoint(in: addedByKey.indices) { addedByKey[$0] < first }
    while lo < addedByKey.count && addedByKey[lo] >> 32 == UInt64(key) {
      body(UInt32(truncatingIfNeeded: addedByKey[lo]))
      lo += 1
    }
  }

  /// The added tracks' agreeing pairs as keys above frames, sorted, for `forEachTriplet`.
  func addedTripletsByKey() -> [UInt64] {
    (triplets?.added ?? []).map { UInt64($0.hash) << 32 | UInt64($0.position) }.sorted()
  }

  /// The track of `tracks` holding global frame `position`, or nil in a gap.
  func trackIndex(containing position: UInt32) -> Int? {
    Catalog.trackIndex(containing: position, tracks: tracks, starts: starts)
  }
}
