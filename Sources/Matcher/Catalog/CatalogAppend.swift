import Foundation

/// A catalog grown by tracks laid after every track of an existing one, as `CatalogBuilder` edits it: the tracks, the
/// stop-hash cap, and the merges of both indexes (`IndexMerge`), which are written straight into the new file
/// (`write(to:progress:)`) or made in memory (`catalog()`).
///
/// Written straight, the grown indexes never sit in memory beside the old ones: adding a song to the 10,000-hour
/// catalog needed 4.4 GB of memory besides the mapped file, and most of its time went into the kernel's zeroing of
/// that memory (docs/benchmarks.md).
final class CatalogAppend {
  let base: Catalog
  let tracks: [CatalogTrack]
  let stopHashCap: Int
  let pairs: IndexMerge
  /// The added tracks' agreeing pairs, as postings of `base`'s triplet index; nil when it has none (format version 1)
  /// or they outgrow its position bits, and the triplet index is derived again from the whole pair index.
  let addedTriplets: [(hash: UInt32, position: UInt32)]?
  /// Each track's global start frame.
  private let starts: [UInt32]

  /// - Parameter entries: the added tracks' pair postings (hash, global frame), stop hashes left out.
  /// - Parameter dropped: the hashes of `base` that the grown catalog drops as stop hashes.
  init(
    base: Catalog, tracks: [CatalogTrack], entries: [(hash: UInt32, position: UInt32)], dropping dropped: Set<UInt32>,
    stopHashCap: Int
  ) {
    self.base = base
    self.tracks = tracks
    starts = tracks.map(\.globalStartFrame)
    self.stopHashCap = stopHashCap
    pairs = IndexMerge(base: base.index, adding: entries, dropping: dropped)
    addedTriplets = base.triplets.flatMap {
      TripletIndex.appendedEntries(entries, to: $0, layout: HashLayout(base.parameters))
    }
  }

  /// The grown catalog in memory.
  func catalog() -> Catalog {
    let index = pairs.materialized()
    let triplets =
      if let addedTriplets, let old = base.triplets {
        TripletIndex(index: old.index.merging(addedTriplets, dropping: []))
      } else {
        TripletIndex.derive(from: index, tracks: tracks, layout: HashLayout(base.parameters))
      }
    return Catalog(
      parameters: base.parameters, tracks: tracks, index: index, stopHashCap: stopHashCap, triplets: triplets)
  }

  /// Writes the grown catalog as `Catalog.write(to:progress:)` does, its indexes merged as they are written; where the
  /// triplet index must be derived again (`addedTriplets` nil), from the catalog made in memory.
  func write(to url: URL, progress: (_ written: Int, _ total: Int) -> Void) throws {
    guard let addedTriplets, let old = base.triplets else {
      try catalog().write(to: url, progress: progress)
      return
    }
    let pairIndex = Catalog.EncodedIndex(pairs)
    let tripletIndex = Catalog.EncodedIndex(IndexMerge(base: old.index, adding: addedTriplets, dropping: []))
    try Catalog.writeFile(to: url, progress: progress) { fileBytes, write in
      try Catalog.encode(
        parameters: base.parameters, tracks: tracks, stopHashCap: stopHashCap, pairs: pairIndex,
        triplets: tripletIndex, fileBytes: fileBytes, into: write)
    }
  }

  /// Calls `body` with the global frame of every posting of triplet key `key` (of `base`'s key bits) in the grown
  /// catalog's triplet index, from `base`'s and from `addedByKey` (`addedTripletsByKey`), without merging them. Only
  /// with `addedTriplets`.
  func forEachTriplet(of key: UInt32, addedByKey: [UInt64], _ body: (UInt32) -> Void) {
    base.triplets?.index.forEachPosting(of: key, body)
    var lo = 0
    var hi = addedByKey.count
    let first = UInt64(key) << 32
    while lo < hi {
      let mid = (lo + hi) / 2
      if addedByKey[mid] < first { lo = mid + 1 } else { hi = mid }
    }
    while lo < addedByKey.count && addedByKey[lo] >> 32 == UInt64(key) {
      body(UInt32(truncatingIfNeeded: addedByKey[lo]))
      lo += 1
    }
  }

  /// `addedTriplets` as keys above frames, sorted, for `forEachTriplet`.
  func addedTripletsByKey() -> [UInt64] {
    (addedTriplets ?? []).map { UInt64($0.hash) << 32 | UInt64($0.position) }.sorted()
  }

  /// The track of `tracks` holding global frame `position`, or nil in a gap.
  func trackIndex(containing position: UInt32) -> Int? {
    Catalog.trackIndex(containing: position, tracks: tracks, starts: starts)
  }
}
