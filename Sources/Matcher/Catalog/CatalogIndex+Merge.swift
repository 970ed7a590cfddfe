/// Growing an index by appending tracks, without rebuilding it from all its entries.
extension CatalogIndex {
  /// Calls `body(hash, global frame)` for every posting, slot by slot, in stored order.
  @inline(__always)
  func forEachEntry(_ body: (UInt32, UInt32) -> Void) {
    let shift = UInt32(positionBits)
    let residualShift = UInt32(residualBits)
    let mask = positionMask
    for slot in 0..<(directory.count - 1) {
      let top = UInt32(slot) << residualShift
      for i in Int(directory[slot])..<Int(directory[slot + 1]) {
        let p = postings[i]
        body(residualBits == 0 ? top : top | (p >> shift), p & mask)
      }
    }
  }

  /// The number of postings of each hash (`2^hashBits` counts): one pass over the postings, or, when each slot
  /// holds one hash (a large index), read off the directory.
  func postingCountsByHash() -> [UInt32] {
    if residualBits == 0 { return (0..<(directory.count - 1)).map { directory[$0 + 1] - directory[$0] } }
    var counts = [UInt32](repeating: 0, count: 1 << hashBits)
    counts.withUnsafeMutableBufferPointer { c in
      forEachEntry { hash, _ in c[Int(hash)] &+= 1 }
    }
    return counts
  }

  /// This index without the postings of the `dropped` hashes and with `entries` added: the index `build` makes of
  /// this index's entries followed by `entries`, when every added position lies after every posting here (tracks
  /// appended to the end of the frame axis). Linear (`IndexMerge`).
  func merging(_ entries: [(hash: UInt32, position: UInt32)], dropping dropped: Set<UInt32>) -> CatalogIndex {
    IndexMerge(base: self, adding: entries, dropping: dropped).materialized()
  }
}
