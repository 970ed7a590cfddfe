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
  /// appended to the end of the frame axis).
  ///
  /// Linear: while the directory keeps its size and no hash is dropped, each slot's postings are copied as they are,
  /// the added ones after them; otherwise every posting is decoded and packed again in one pass.
  func merging(_ entries: [(hash: UInt32, position: UInt32)], dropping dropped: Set<UInt32>) -> CatalogIndex {
    var droppedPostings = 0
    for hash in dropped { forEachPosting(of: hash) { _ in droppedPostings += 1 } }
    let total = postings.count - droppedPostings + entries.count
    let dirBits = Self.directoryBits(hashBits: hashBits, postingCount: total)
    let newResidualBits = UInt32(hashBits - dirBits)
    let newPositionBits = UInt32(32) - newResidualBits
    let residualMask: UInt32 = newResidualBits == 0 ? 0 : (1 << newResidualBits) - 1
    let owner = IndexArrays(directoryCount: (1 << dirBits) + 1, postingCount: total)
    let out = owner.flatDirectory
    let copiesSlots = dirBits == directoryBits && droppedPostings == 0
    var isDropped = [Bool]()
    if droppedPostings > 0 {
      isDropped = [Bool](repeating: false, count: 1 << hashBits)
      for hash in dropped { isDropped[Int(hash)] = true }
    }
    // Postings per slot, then each slot's start.
    if copiesSlots {
      for slot in 0..<(out.count - 1) { out[slot + 1] = directory[slot + 1] - directory[slot] }
    } else {
      isDropped.withUnsafeBufferPointer { skip in
        forEachEntry { hash, _ in
          if skip.isEmpty || !skip[Int(hash)] { out[Int(hash >> newResidualBits) + 1] += 1 }
        }
      }
    }
    for e in entries { out[Int(e.hash >> newResidualBits) + 1] += 1 }
    for i in 1..<out.count { out[i] += out[i - 1] }
    var fill = Array(out.dropLast())
    let packed = owner.postings
    fill.withUnsafeMutableBufferPointer { fill in
      @inline(__always) func place(_ hash: UInt32, _ position: UInt32) {
        let slot = Int(hash >> newResidualBits)
        packed[Int(fill[slot])] =
          newResidualBits == 0 ? position : ((hash & residualMask) << newPositionBits) | position
        fill[slot] += 1
      }
      if copiesSlots {
        for slot in 0..<(out.count - 1) {
          let lo = Int(directory[slot])
          let n = Int(directory[slot + 1]) - lo
          if n == 0 { continue }
          (packed.baseAddress! + Int(fill[slot])).update(from: postings.baseAddress! + lo, count: n)
          fill[slot] += UInt32(n)
        }
      } else {
        isDropped.withUnsafeBufferPointer { skip in
          forEachEntry { hash, position in
            if skip.isEmpty || !skip[Int(hash)] { place(hash, position) }
          }
        }
      }
      for e in entries { place(e.hash, e.position) }
    }
    return owner.finished(hashBits: hashBits, directoryBits: dirBits, positionBits: Int(newPositionBits))
  }
}
