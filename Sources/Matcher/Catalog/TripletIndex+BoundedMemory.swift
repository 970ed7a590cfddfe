/// Deriving a catalog's triplet index a run of tracks at a time, for the catalog build.
extension TripletIndex {
  /// Pairs sorted at once: enough that a run costs little beside its sort, few enough that its 16 bytes a pair
  /// (268 MB) stay small beside a large catalog's indexes.
  static let runPairs = 1 << 24

  /// The index `derive(from: pairs, layout:)` makes, byte for byte, in bounded memory. `derive` sorts every pair of
  /// the catalog at once (16 bytes a pair, 10 GB at 10,000 hours) and lists the agreeing pairs (16 bytes each with
  /// their shortened copy); this sorts and joins the pairs of a run of `tracks` at a time (about `runPairs` pairs),
  /// three times over (to count the agreeing pairs, then to count each directory slot's, then to place them), and
  /// builds the index in place (`CatalogIndex.build(hashBits:postingCount:entries:)`).
  ///
  /// The same index: pairs agree only within a frame of each other, and a track's pairs lie on its frames and at most
  /// `2^frameBits` frames past them, inside the gap before the next track, so no two tracks' pairs agree; a run's
  /// pairs are read from the index in the order `derive` reads them (slot by slot, each slot's postings in order) and
  /// joined with `join`'s rule (`agreeingPairs`). When the index's slots are not each in frame order (an index rebuilt
  /// with fewer directory bits after an edit can interleave them), or the gap does not hold a pair's span, the whole
  /// catalog is one run.
  ///
  /// - Parameter tracks: the catalog's tracks, laid on the frame axis of `pairs`, in frame order.
  /// - Parameter runPairs: about how many pairs to sort at once (`TripletIndex.runPairs`).
  /// - Parameter progress: the share done (0 to 1), after each run of each of the three passes.
  static func derive(
    from pairs: CatalogIndex, tracks: [CatalogTrack], layout: HashLayout, runPairs: Int = runPairs,
    progress: (Double) -> Void = { _ in }
  ) -> TripletIndex {
    let ends = runEnds(of: pairs, tracks: tracks, layout: layout, runPairs: runPairs)
    var runsDone = 0
    let runsInAll = Double(3 * ends.count)
    func ranRun() {
      runsDone += 1
      progress(Double(runsDone) / runsInAll)
    }
    var count = 0
    var largestTarget: UInt32 = 0
    forEachAgreeingPair(in: pairs, runEnds: ends, layout: layout, ranRun: ranRun) { _, _ in
      count += 1
    } largest: {
      largestTarget = max(largestTarget, $0)
    }
    // `derive`'s geometry, from the same two figures.
    let positionBits = max(1, UInt32.bitWidth - largestTarget.leadingZeroBitCount)
    let directoryBits = CatalogIndex.directoryBits(hashBits: 32, postingCount: count)
    let keyBits = min(32, directoryBits + 32 - positionBits)
    let shift = UInt32(32 - keyBits)
    return TripletIndex(
      index: CatalogIndex.build(hashBits: keyBits, postingCount: count) { emit in
        forEachAgreeingPair(in: pairs, runEnds: ends, layout: layout, ranRun: ranRun) { key, target in
          emit(key >> shift, target)
        }
      })
  }

  /// Where each run of tracks ends on the frame axis (exclusive; the last run ends past every posting).
  private static func runEnds(
    of pairs: CatalogIndex, tracks: [CatalogTrack], layout: HashLayout, runPairs: Int
  ) -> [UInt64] {
    let everything = [UInt64(UInt32.max) + 1]
    guard (UInt64(1) << UInt64(layout.frameBits)) + 1 < UInt64(Catalog.gapFrames), slotsAreInFrameOrder(pairs)
    else { return everything }
    var ends: [UInt64] = []
    var pairsInRun = 0
    for (i, t) in tracks.enumerated() {
      if pairsInRun > 0 && pairsInRun + t.hashCount > runPairs {
        ends.append(UInt64(tracks[i].globalStartFrame))
        pairsInRun = 0
      }
      pairsInRun += t.hashCount
    }
    return ends + everything
  }

  /// Whether the postings of each directory slot are in frame order (as `build` lays entries given in frame order).
  private static func slotsAreInFrameOrder(_ pairs: CatalogIndex) -> Bool {
    let mask = pairs.positionMask
    for slot in 0..<(pairs.directory.count - 1) {
      var previous: UInt32 = 0
      for i in Int(pairs.directory[slot])..<Int(pairs.directory[slot + 1]) {
        let p = pairs.postings[i] & mask
        if p < previous { return false }
        previous = p
      }
    }
    return true
  }

  /// Calls `body(32-bit key, target frame)` for every agreeing pair of `pairs`, in `derive`'s order, `largest` with
  /// the largest target frame of each run's pairs, and `ranRun` after each run.
  private static func forEachAgreeingPair(
    in pairs: CatalogIndex, runEnds: [UInt64], layout: HashLayout, ranRun: () -> Void,
    _ body: (UInt32, UInt32) -> Void, largest: (UInt32) -> Void = { _ in }
  ) {
    let slots = pairs.directory.count - 1
    var cursors = (0..<slots).map { Int(pairs.directory[$0]) }
    var capacity = min(Self.runPairs, max(1, pairs.postings.count))
    var keys = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    var scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    let histograms = UnsafeMutablePointer<Int>.allocate(capacity: RadixSort.histogramCount)
    defer {
      keys.deallocate()
      scratch.deallocate()
      histograms.deallocate()
    }
    let frameMask = UInt32(1 << layout.frameBits) - 1
    let positionShift = UInt32(pairs.positionBits)
    let residualShift = UInt32(pairs.residualBits)
    let mask = pairs.positionMask
    let slotIsHash = pairs.residualBits == 0
    for end in runEnds {
      var n = 0
      for slot in 0..<slots {
        let top = UInt32(slot) << residualShift
        var i = cursors[slot]
        let last = Int(pairs.directory[slot + 1])
        while i < last {
          let p = pairs.postings[i]
          let position = p & mask
          if UInt64(position) >= end { break }
          if n == capacity {
            capacity *= 2
            let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
            grown.moveInitialize(from: keys, count: n)
            keys.deallocate()
            keys = grown
            scratch.deallocate()
            scratch = .allocate(capacity: capacity)
          }
          let hash = slotIsHash ? top : top | (p >> positionShift)
          keys[n] = UInt64(position &+ (hash & frameMask)) << 32 | UInt64(hash)
          n += 1
          i += 1
        }
        cursors[slot] = i
      }
      RadixSort.sort(keys, count: n, byFieldAt: 32, scratch: scratch, histograms: histograms)
      if n > 0 { largest(UInt32(truncatingIfNeeded: keys[n - 1] >> 32)) }
      agreeingPairs(sorted: keys, count: n, layout: layout, body)
      ranRun()
    }
  }
}
