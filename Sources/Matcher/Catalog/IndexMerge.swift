import Foundation

/// An index grown by postings of tracks appended after every track of it, less the postings of dropped hashes, made a
/// directory slot at a time: the index `CatalogIndex.build` makes of the old index's entries followed by the added
/// ones, without holding it whole.
///
/// `catalog add` writes a grown catalog straight from here into the new file (`CatalogAppend`), so that the merged
/// index never sits in memory beside the old one: at 10,000 hours that was 4.4 GB of memory, and most of the
/// command's time went into the kernel's zeroing of it. `materialized` makes the same index in memory, for the
/// catalogs that are used where they are built.
///
/// Linear in the postings: the directory comes from one pass over the old directory (or, when it changes size or a
/// hash is dropped, over the old postings), and the postings from one more, slot by slot: each new slot's share of
/// the old slots that cover its hashes, then its added postings, in the order they were given.
struct IndexMerge {
  let base: CatalogIndex
  let hashBits: Int
  let directoryBits: Int
  let positionBits: Int
  let postingCount: Int
  var residualBits: Int { hashBits - directoryBits }
  /// The added (hash, position) entries, kept, in the order they were given within each slot, slots ascending.
  private let added: [(hash: UInt32, position: UInt32)]
  /// Per hash, whether it is dropped; empty when none is.
  private let isDropped: [Bool]
  /// True while the directory keeps its size and no hash is dropped: each old slot's postings go out as they are.
  private let copiesSlots: Bool

  /// The merge of `base` with `entries`, whose positions all lie after every posting of `base`, less the postings of
  /// the `dropped` hashes (which `entries` must not hold).
  init(base: CatalogIndex, adding entries: [(hash: UInt32, position: UInt32)], dropping dropped: Set<UInt32>) {
    self.base = base
    hashBits = base.hashBits
    var droppedPostings = 0
    for hash in dropped { base.forEachPosting(of: hash) { _ in droppedPostings += 1 } }
    postingCount = base.postings.count - droppedPostings + entries.count
    directoryBits = CatalogIndex.directoryBits(hashBits: hashBits, postingCount: postingCount)
    positionBits = 32 - (hashBits - directoryBits)
    copiesSlots = directoryBits == base.directoryBits && droppedPostings == 0
    var isDropped = [Bool]()
    if droppedPostings > 0 {
      isDropped = [Bool](repeating: false, count: 1 << hashBits)
      for hash in dropped { isDropped[Int(hash)] = true }
    }
    self.isDropped = isDropped
    // A stable sort by slot: entries of one slot keep their order, as `build` would place them.
    let slotShift = UInt32(hashBits - directoryBits)
    added = entries.indices.sorted {
      let (a, b) = (entries[$0].hash >> slotShift, entries[$1].hash >> slotShift)
      return a != b ? a < b : $0 < $1
    }.map { entries[$0] }
  }

  /// The new directory (`2^directoryBits + 1` offsets).
  func directory() -> SlotDirectoryStorage {
    let count = (1 << directoryBits) + 1
    let flat = calloc(count, 4)!.bindMemory(to: UInt32.self, capacity: count)
    countDirectory(into: flat)
    return SlotDirectoryStorage(takingOver: flat, count: count)
  }

  /// Fills `flat`, `2^directoryBits + 1` zeroed entries, with the new directory's plain offsets.
  private func countDirectory(into flat: UnsafeMutablePointer<UInt32>) {
    let count = (1 << directoryBits) + 1
    let slotShift = UInt32(residualBits)
    if copiesSlots {
      for slot in 0..<(count - 1) { flat[slot + 1] = base.directory[slot + 1] - base.directory[slot] }
    } else {
      isDropped.withUnsafeBufferPointer { skip in
        base.forEachEntry { hash, _ in
          if skip.isEmpty || !skip[Int(hash)] { flat[Int(hash >> slotShift) + 1] += 1 }
        }
      }
    }
    for e in added { flat[Int(e.hash >> slotShift) + 1] += 1 }
    for i in 1..<count { flat[i] += flat[i - 1] }
  }

  /// Postings staged before they are handed on: 256 KB, within the level 2 cache.
  static let stagedPostings = 1 << 16

  /// Hands every posting of the merged index to `body`, in order, in runs of up to `stagedPostings`.
  func forEachRun(_ body: (UnsafeBufferPointer<UInt32>) throws -> Void) rethrows {
    let staging = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Self.stagedPostings)
    defer { staging.deallocate() }
    var staged = 0
    @inline(__always) func put(_ posting: UInt32) throws {
      staging[staged] = posting
      staged += 1
      if staged == Self.stagedPostings {
        try body(UnsafeBufferPointer(staging))
        staged = 0
      }
    }
    func put(contentsOf run: UnsafeBufferPointer<UInt32>) throws {
      var rest = run
      while !rest.isEmpty {
        let n = min(rest.count, Self.stagedPostings - staged)
        _ = UnsafeMutableBufferPointer(rebasing: staging[staged..<(staged + n)])
          .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: rest[..<(rest.startIndex + n)]))
        staged += n
        rest = UnsafeBufferPointer(rebasing: rest[(rest.startIndex + n)...])
        if staged == Self.stagedPostings {
          try body(UnsafeBufferPointer(staging))
          staged = 0
        }
      }
    }
    let newResidual = UInt32(residualBits)
    let oldResidual = UInt32(base.residualBits)
    let newShift = UInt32(positionBits)
    let oldShift = UInt32(base.positionBits)
    let oldMask = base.positionMask
    let residualMask: UInt32 = newResidual == 0 ? 0 : (1 << newResidual) - 1
    @inline(__always) func packed(_ hash: UInt32, _ position: UInt32) -> UInt32 {
      newResidual == 0 ? position : ((hash & residualMask) << newShift) | position
    }
    var next = 0
    if copiesSlots {
      // The old postings go out as they lie, each added one after the old postings of its slot.
      var copied = 0
      while next < added.count {
        let slot = Int(added[next].hash >> newResidual)
        let end = Int(base.directory[slot + 1])
        try put(contentsOf: UnsafeBufferPointer(rebasing: base.postings[copied..<end]))
        copied = end
        while next < added.count && Int(added[next].hash >> newResidual) == slot {
          try put(packed(added[next].hash, added[next].position))
          next += 1
        }
      }
      try put(contentsOf: UnsafeBufferPointer(rebasing: base.postings[copied...]))
      if staged > 0 { try body(UnsafeBufferPointer(rebasing: staging[..<staged])) }
      return
    }
    let slots = 1 << directoryBits
    try isDropped.withUnsafeBufferPointer { skip in
      for slot in 0..<slots {
        // The old slots that hold this slot's hashes: one (the same size, or a larger old slot split) or several
        // (a smaller directory).
        let firstHash = UInt64(slot) << UInt64(newResidual)
        let lastHash = firstHash + (UInt64(1) << UInt64(newResidual)) - 1
        for old in Int(firstHash >> UInt64(oldResidual))...Int(lastHash >> UInt64(oldResidual)) {
          let top = UInt32(old) << oldResidual
          for i in Int(base.directory[old])..<Int(base.directory[old + 1]) {
            let p = base.postings[i]
            let hash = oldResidual == 0 ? top : top | (p >> oldShift)
            guard Int(hash >> newResidual) == slot, skip.isEmpty || !skip[Int(hash)] else { continue }
            try put(packed(hash, p & oldMask))
          }
        }
        while next < added.count && Int(added[next].hash >> newResidual) == slot {
          try put(packed(added[next].hash, added[next].position))
          next += 1
        }
      }
    }
    if staged > 0 { try body(UnsafeBufferPointer(rebasing: staging[..<staged])) }
  }

  /// The merged index, in memory.
  func materialized() -> CatalogIndex {
    let owner = IndexArrays(directoryCount: (1 << directoryBits) + 1, postingCount: postingCount)
    countDirectory(into: owner.flatDirectory.baseAddress!)
    var at = 0
    forEachRun { run in
      _ = UnsafeMutableBufferPointer(rebasing: owner.postings[at..<(at + run.count)]).update(fromContentsOf: run)
      at += run.count
    }
    precondition(at == postingCount, "\(at) postings merged where \(postingCount) were counted")
    return owner.finished(hashBits: hashBits, directoryBits: directoryBits, positionBits: positionBits)
  }
}
