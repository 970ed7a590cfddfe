import Foundation

/// An index edited by cutting tracks out of its frame axis (`AxisCut`), dropping the postings of some hashes and
/// adding postings of tracks appended after every track kept, made a directory slot at a time: the index
/// `CatalogIndex.build` makes of the kept entries, moved down the axis, followed by the added ones, without holding
/// it whole.
///
/// `catalog add` and `catalog remove` write an edited catalog straight from here into the new file (`CatalogEdit`),
/// so that the new index never sits in memory beside the old one: at 10,000 hours that was 4.4 GB of memory, and
/// most of the command's time went into the kernel's zeroing of it. `materialized` makes the same index in memory,
/// for the catalogs that are used where they are built.
///
/// Linear in the postings. Where hashes are dropped or tracks cut, what each old slot keeps is counted: from the
/// caller's counts per hash when it has them (`CatalogBuilder` counts them for the stop-hash rule), or by one pass
/// over the postings. The directory comes from those counts, or from the old directory when nothing is dropped or
/// cut, or, when its size changes, from a pass over the old postings; the postings from one more pass, slot by slot:
/// each new slot's share of the old slots that cover its hashes, then its added postings, in the order they were
/// given.
struct IndexMerge {
  let base: CatalogIndex
  let hashBits: Int
  let directoryBits: Int
  let positionBits: Int
  let postingCount: Int
  var residualBits: Int { hashBits - directoryBits }
  /// The tracks cut from the axis: their postings go, and later ones move down.
  private let cut: AxisCut
  /// The added (hash, position) entries, kept, in the order they were given within each slot, slots ascending.
  private let added: [(hash: UInt32, position: UInt32)]
  /// Per hash, whether it is dropped; empty when none is.
  private let isDropped: [Bool]
  /// True while the directory keeps its size, no hash is dropped and nothing is cut: each old slot's postings go out
  /// as they are.
  private let copiesSlots: Bool
  /// Where postings are dropped or cut, the postings each old slot keeps; nil otherwise. Counted once, they give the
  /// total (and so the directory's size) and, when the directory keeps its size, the new directory without a second
  /// pass over the postings: `directory()` takes their memory over, so that a copy of them never lies beside it
  /// (537 MB at 10,000 hours).
  private let keptBySlot: SlotCounts?

  /// The postings each old slot keeps, laid out as a plain directory before its sums: slot i's count at entry i + 1
  /// of `(2^directoryBits + 1)` entries from `calloc`, freed unless taken over (`take`).
  private final class SlotCounts {
    private var flat: UnsafeMutablePointer<UInt32>?
    let count: Int
    init(count: Int) {
      self.count = count
      flat = calloc(count, 4)!.bindMemory(to: UInt32.self, capacity: count)
    }
    deinit { free(flat) }
    /// The counts while they are not taken.
    var counts: UnsafeMutablePointer<UInt32>? { flat }
    /// The counts' memory, now the caller's to free; nil once taken.
    func take() -> UnsafeMutablePointer<UInt32>? {
      defer { flat = nil }
      return flat
    }
  }

  /// The merge of `base`, less the postings of the `dropped` hashes and of the spans `cut` removes, with `entries`,
  /// whose positions all lie after every posting that `base` keeps, moved (`entries` must not hold dropped hashes).
  /// - Parameter keptCounts: when the caller has them, the postings of each hash of `base` (`2^hashBits` counts) that
  ///   `cut` keeps, dropped hashes included; without them, a pass over `base`'s postings counts them.
  init(
    base: CatalogIndex, cutting cut: AxisCut = AxisCut(), adding entries: [(hash: UInt32, position: UInt32)],
    dropping dropped: Set<UInt32>, keptCounts: [UInt32]? = nil
  ) {
    self.base = base
    self.cut = cut
    hashBits = base.hashBits
    var isDropped = [Bool]()
    if !dropped.isEmpty {
      isDropped = [Bool](repeating: false, count: 1 << hashBits)
      for hash in dropped { isDropped[Int(hash)] = true }
    }
    var kept = base.postings.count
    var keptBySlot: SlotCounts?
    if !isDropped.isEmpty || !cut.isEmpty {
      let counts =
        if let keptCounts {
          Self.keptPostingsBySlot(of: base, dropping: isDropped, counts: keptCounts)
        } else {
          Self.keptPostingsBySlot(of: base, dropping: isDropped, cutting: cut)
        }
      kept = counts.total
      keptBySlot = counts.bySlot
    }
    if kept == base.postings.count && cut.isEmpty {
      isDropped = []
      keptBySlot = nil
    }
    self.isDropped = isDropped
    self.keptBySlot = keptBySlot
    postingCount = kept + entries.count
    directoryBits = CatalogIndex.directoryBits(hashBits: hashBits, postingCount: postingCount)
    positionBits = 32 - (hashBits - directoryBits)
    copiesSlots = directoryBits == base.directoryBits && isDropped.isEmpty && cut.isEmpty
    // A stable sort by slot: entries of one slot keep their order, as `build` would place them.
    let slotShift = UInt32(hashBits - directoryBits)
    added = entries.indices.sorted {
      let (a, b) = (entries[$0].hash >> slotShift, entries[$1].hash >> slotShift)
      return a != b ? a < b : $0 < $1
    }.map { entries[$0] }
  }

  /// The postings of each slot of `base` that neither a dropped hash (`isDropped`, or empty) nor `cut` removes, and
  /// their total: a pass over the postings.
  private static func keptPostingsBySlot(of base: CatalogIndex, dropping isDropped: [Bool], cutting cut: AxisCut)
    -> (bySlot: SlotCounts, total: Int)
  {
    let kept = SlotCounts(count: base.directory.count)
    let counts = kept.counts!
    let shift = UInt32(base.positionBits)
    let residual = UInt32(base.residualBits)
    let mask = base.positionMask
    let postings = base.postings
    var total = 0
    isDropped.withUnsafeBufferPointer { skip in
      for slot in 0..<(base.directory.count - 1) {
        let top = UInt32(slot) << residual
        var n: UInt32 = 0
        for i in Int(base.directory[slot])..<Int(base.directory[slot + 1]) {
          let p = postings[i]
          if !skip.isEmpty && skip[Int(residual == 0 ? top : top | (p >> shift))] { continue }
          if cut.moved(p & mask) != nil { n += 1 }
        }
        counts[slot + 1] = n
        total += Int(n)
      }
    }
    return (kept, total)
  }

  /// The postings of each slot of `base` that `keptByHash` (a count per hash) gives to the hashes not dropped
  /// (`isDropped`, or empty), and their total: a pass over the counts, not the postings.
  private static func keptPostingsBySlot(of base: CatalogIndex, dropping isDropped: [Bool], counts keptByHash: [UInt32])
    -> (bySlot: SlotCounts, total: Int)
  {
    precondition(keptByHash.count == 1 << base.hashBits, "\(keptByHash.count) counts for \(base.hashBits) hash bits")
    let kept = SlotCounts(count: base.directory.count)
    let counts = kept.counts!
    let hashesPerSlot = 1 << base.residualBits
    var total = 0
    isDropped.withUnsafeBufferPointer { skip in
      keptByHash.withUnsafeBufferPointer { byHash in
        for slot in 0..<(base.directory.count - 1) {
          var n: UInt32 = 0
          for hash in (slot * hashesPerSlot)..<((slot + 1) * hashesPerSlot) where skip.isEmpty || !skip[hash] {
            n += byHash[hash]
          }
          counts[slot + 1] = n
          total += Int(n)
        }
      }
    }
    return (kept, total)
  }

  /// The new directory (`2^directoryBits + 1` offsets).
  func directory() -> SlotDirectoryStorage {
    let count = (1 << directoryBits) + 1
    if directoryBits == base.directoryBits, let flat = keptBySlot?.take() {
      finishDirectory(flat)
      return SlotDirectoryStorage(takingOver: flat, count: count)
    }
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
    } else if directoryBits == base.directoryBits, let kept = keptBySlot?.counts {
      flat.update(from: kept, count: count)
    } else {
      isDropped.withUnsafeBufferPointer { skip in
        base.forEachEntry { hash, position in
          if (skip.isEmpty || !skip[Int(hash)]) && cut.moved(position) != nil { flat[Int(hash >> slotShift) + 1] += 1 }
        }
      }
    }
    finishDirectory(flat)
  }

  /// Adds the added postings to `flat`'s counts of old postings per slot, and sums them into offsets.
  private func finishDirectory(_ flat: UnsafeMutablePointer<UInt32>) {
    let count = (1 << directoryBits) + 1
    let slotShift = UInt32(residualBits)
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
            guard Int(hash >> newResidual) == slot, skip.isEmpty || !skip[Int(hash)],
              let position = cut.moved(p & oldMask)
            else { continue }
            try put(packed(hash, position))
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
