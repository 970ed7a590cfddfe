import CPrefetch

/// The search for new plays through the catalog's triplet index: a broadcast peak's lookups of common hashes, taken
/// two by two under each speed hypothesis, are looked up as a triplet; each hit is two matches (in a catalog large
/// enough, only once both pairs' postings confirm it: `confirmsTripletHits`), passed to the search (`search`) as
/// `TargetAgreement` would pass them. Two lookups give the same triplet under every hypothesis that gives both of them
/// the same hashes (nearby speeds round a pair's distance alike), so each two are looked up once, for all of those
/// hypotheses (`CommonLookup`).
///
/// Four steps, each over all of the peak's pairs before the next, so that the memory misses of a step (the triplet
/// index's directory, then its postings, then the pair index's postings) overlap across pairs instead of following
/// one another: at 1,000 hours a peak has about 110 probes, and each miss costs more than the work around it.
/// 1. `probingTriplets`: each two lookups' key, and the bounds of its directory slot in the triplet index.
/// 2. `readingTripletHits`: the target frames stored under each key, but for stop keys
///    (`MatcherTuning.maxTripletKeyHits`).
/// 3. `confirmingTripletHits`: each hit against the pairs' postings in the pair index (binary searches in lockstep,
///    `FencedLowerBounds`), or taken as it is, as matches of the peak.
/// 4. `searchingTripletMatches`: each distinct match that no running play takes, to the search.
extension StreamMatcher {
  /// Two of the current peak's common lookups, the hypotheses they share, and where their key's postings lie in the
  /// triplet index (the slot may hold other keys too).
  struct TripletProbe {
    /// Indices in `commonLookups` of the lookup with the smaller hash and of the other.
    var first: Int32
    var second: Int32
    var hypotheses: HypothesisSet
    var key: UInt32
    var postingsStart: UInt32 = 0
    var postingsEnd: UInt32 = 0
  }

  /// A target frame stored under a probe's key, and its search in the postings of the probe's second pair.
  struct TripletHit {
    var probe: Int32
    var target: UInt32
    var secondSearch: Int32 = 0
  }

  /// A distinct match of the peak that no running play takes, with its diagonal and vote counters, for `search`.
  struct TripletMatch {
    var hypothesis: UInt8
    var approximate: Bool
    var anchorFrame: Int32
    var reference: UInt32
    var diagonal: Int
    var firstSlot: UInt32
    var secondSlot: UInt32
  }

  /// A match of the peak as a key: its hypothesis (top 8 bits), anchor frame after `maxQueryPairFrames` before the
  /// peak (next 23), reference frame (next 32), and last whether the reference is approximate
  /// (`MatchQueue.Match.approximate`), so that the key shifted right by one names the match.
  @inline(__always)
  static func tripletMatchKey(hypothesis h: Int, anchorOffset: Int32, reference: UInt32, approximate: Bool) -> UInt64 {
    UInt64(h) << 56 | UInt64(anchorOffset) << 33 | UInt64(reference) << 1 | (approximate ? 1 : 0)
  }

  func searchTriplets(_ triplets: TripletIndex, targetFrame: Int32) {
    guard commonLookups.count >= 2 else { return }
    probingTriplets(triplets)
    readingTripletHits(triplets)
    confirmingTripletHits(targetFrame: targetFrame)
    searchingTripletMatches(targetFrame: targetFrame)
  }

  // MARK: Step 1

  /// Every two lookups from different anchors, with different hashes and a hypothesis in common (taken once, under
  /// the first hypothesis they share), with the bounds of their key's directory slot: asked for as each key is made
  /// (`cprefetch_read`), then read for every two in a loop of their own, so that their misses overlap.
  private func probingTriplets(_ triplets: TripletIndex) {
    tripletProbes.removeAll()
    orderLookupsByHypothesis()
    let directory = triplets.index.directory
    let directoryStart = directory.baseAddress!
    let residualBits = UInt32(triplets.index.residualBits)
    for h in hypotheses.indices {
      let start = hypothesisRunStarts[h]
      let end = hypothesisRunStarts[h + 1]
      guard end - start >= 2 else { continue }
      for x in start..<(end - 1) {
        let i = Int(lookupsByHypothesis[x])
        let a = commonLookups[i]
        for y in (x + 1)..<end {
          let j = Int(lookupsByHypothesis[y])
          let b = commonLookups[j]
          guard a.anchorFrame != b.anchorFrame && a.hash != b.hash else { continue }
          let shared = a.hypotheses.intersection(b.hypotheses)
          guard shared.first == h else { continue }
          let (first, second) = a.hash < b.hash ? (i, j) : (j, i)
          let key = triplets.key(a.hash, b.hash)
          cprefetch_read(directoryStart + Int(key >> residualBits))
          tripletProbes.append(
            TripletProbe(first: Int32(first), second: Int32(second), hypotheses: shared, key: key))
        }
      }
    }
    for p in tripletProbes.indices {
      let slot = Int(tripletProbes[p].key >> residualBits)
      tripletProbes[p].postingsStart = directory[slot]
      tripletProbes[p].postingsEnd = directory[slot + 1]
    }
  }

  // MARK: Step 2

  /// The target frames under each probe's key: the postings of its slot that carry the key's residual bits; none for a
  /// stop key (more than `tripletKeyHitCap` of them).
  private func readingTripletHits(_ triplets: TripletIndex) {
    tripletHits.removeAll()
    let index = triplets.index
    let residualBits = UInt32(index.residualBits)
    let residualMask: UInt32 = residualBits == 0 ? 0 : (1 << residualBits) - 1
    let shift = UInt32(index.positionBits)
    let positionMask = index.positionMask
    // Each probe's first posting is asked for first (`cprefetch_read`, which does not wait for it), so that their
    // misses overlap; the loop below, whose branches depend on them, then reads from the cache.
    for probe in tripletProbes where probe.postingsStart < probe.postingsEnd {
      cprefetch_read(index.postings.baseAddress! + Int(probe.postingsStart))
    }
    for p in tripletProbes.indices {
      let probe = tripletProbes[p]
      let residual = probe.key & residualMask
      let probeStart = tripletHits.count
      for i in Int(probe.postingsStart)..<Int(probe.postingsEnd) {
        let posting = index.postings[i]
        if residualBits == 0 || posting >> shift == residual {
          tripletHits.append(TripletHit(probe: Int32(p), target: posting & positionMask))
        }
      }
      if tripletHits.count - probeStart > tripletKeyHitCap { tripletHits.removeLast(from: probeStart) }
    }
  }

  // MARK: Step 3

  /// The hits that the pairs' postings confirm, as matches of the peak (`tripletMatchKeys`): the pair of the smaller
  /// hash has a posting exactly where the hit places its anchor, the other one within a frame of where it places its
  /// own (as `TargetAgreement` allows for the rounding of each pair's distance); a hit is two matches per such posting
  /// of the other pair, under each hypothesis the probe's lookups share. Keys share a slot by chance (about one hit in
  /// nine at 1,000 hours, one in five at 10,000), and these postings tell those hits apart.
  ///
  /// A catalog whose triplet index has few postings of other keys per probe takes every hit unconfirmed
  /// (`confirmsTripletHits`): the smaller hash's match where the hit places it (exact, for a hit of the probe's key)
  /// and the other's where the hit places its target, up to a frame off (approximate); verification's gathering finds
  /// the pairs' postings in any case.
  ///
  /// Where posting lists can be searched (`CatalogIndex.contiguousPostings`), only the other pair's are: a hit stored
  /// under the key is the target of both pairs, so the smaller hash's posting is there by construction, and a hit of
  /// another key has a posting of the other hash within a frame of where it places the anchor only by chance (a few
  /// hundred postings on an axis of 10^8 frames: about 10^-5). That search finds the other pair's postings anyway.
  private func confirmingTripletHits(targetFrame: Int32) {
    tripletMatchKeys.removeAll()
    guard !tripletHits.isEmpty else { return }
    let index = catalog.index
    let frameMask = UInt32(1 << hasher.layout.frameBits) - 1
    let lowestAnchorFrame = targetFrame - maxQueryPairFrames
    @inline(__always) func emit(
      _ probe: TripletProbe, firstReference: UInt32, secondReference: UInt32, secondApproximate: Bool = false
    ) {
      let firstAnchor = commonLookups[Int(probe.first)].anchorFrame - lowestAnchorFrame
      let secondAnchor = commonLookups[Int(probe.second)].anchorFrame - lowestAnchorFrame
      for h in probe.hypotheses {
        tripletMatchKeys.append(
          Self.tripletMatchKey(hypothesis: h, anchorOffset: firstAnchor, reference: firstReference, approximate: false))
        tripletMatchKeys.append(
          Self.tripletMatchKey(
            hypothesis: h, anchorOffset: secondAnchor, reference: secondReference, approximate: secondApproximate))
      }
    }
    guard confirmsTripletHits else {
      for hit in tripletHits {
        let probe = tripletProbes[Int(hit.probe)]
        let first = commonLookups[Int(probe.first)]
        let second = commonLookups[Int(probe.second)]
        emit(
          probe, firstReference: hit.target &- (first.hash & frameMask),
          secondReference: hit.target &- (second.hash & frameMask), secondApproximate: true)
      }
      return
    }
    guard let fences = catalog.pairFences else {
      // No fences: postings carry residual hash bits (a catalog of fewer than about two million postings), and each
      // list is read whole.
      for hit in tripletHits {
        let probe = tripletProbes[Int(hit.probe)]
        let first = commonLookups[Int(probe.first)]
        let second = commonLookups[Int(probe.second)]
        let firstReference = hit.target &- (first.hash & frameMask)
        var confirmed = false
        index.forEachPosting(of: first.hash, in: firstReference...firstReference) { _ in confirmed = true }
        guard confirmed else { continue }
        index.forEachPosting(of: second.hash, in: Self.near(hit.target &- (second.hash & frameMask))) {
          emit(probe, firstReference: firstReference, secondReference: $0)
        }
      }
      return
    }
    lowerBounds.removeAll()
    for k in tripletHits.indices {
      let probe = tripletProbes[Int(tripletHits[k].probe)]
      let second = commonLookups[Int(probe.second)]
      let target = tripletHits[k].target
      let slot = Int(second.hash)
      let key = Self.near(target &- (second.hash & frameMask)).lowerBound
      let (start, end) = (Int(index.directory[slot]), Int(index.directory[slot + 1]))
      tripletHits[k].secondSearch = Int32(
        lowerBounds.append(
          listStart: start, listEnd: end, key: key, guess: guess(of: key, count: end - start), in: index.postings))
    }
    lowerBounds.run(postings: index.postings, fences: fences)
    for hit in tripletHits {
      let probe = tripletProbes[Int(hit.probe)]
      let first = commonLookups[Int(probe.first)]
      let second = commonLookups[Int(probe.second)]
      let firstReference = hit.target &- (first.hash & frameMask)
      let secondList = index.contiguousPostings(of: second.hash)!
      let last = Self.near(hit.target &- (second.hash & frameMask)).upperBound
      var j = lowerBounds.lowerBound(Int(hit.secondSearch))
      while j < secondList.count && secondList[j] <= last {
        emit(probe, firstReference: firstReference, secondReference: secondList[j])
        j += 1
      }
    }
  }

  /// The reference frames within a frame of `center`.
  @inline(__always)
  private static func near(_ center: UInt32) -> ClosedRange<UInt32> {
    (center == 0 ? 0 : center - 1)...(center == .max ? center : center + 1)
  }

  // MARK: Step 4

  /// Each distinct match of the peak (one agreed with by several anchors is searched once, exact if any of its keys
  /// is) to the search, unless a running play takes it: that play has it already. The keys are told apart in a set
  /// (`distinctTripletMatches`), the exact ones first, in the order the hits gave them. Sorting a peak's few hundred
  /// keys to find the distinct ones (a radix sort of six byte passes) took 8.5 % of a 1,000 h scan's CPU; the set
  /// costs 5.6 % fewer instructions in all (100 h: 3.4 %). The plays are the same; as the matches reach the search in
  /// another order, a line's fit may differ slightly (speeds up to 0.0002 apart, ends up to 11 ms, the confidence).
  private func searchingTripletMatches(targetFrame: Int32) {
    guard !tripletMatchKeys.isEmpty else { return }
    let tolerance = settings.alignmentToleranceFrames
    let lowestAnchorFrame = targetFrame - maxQueryPairFrames
    // The matches to search, with their diagonals and vote counters; those counters and the cell lists are asked for
    // in this loop (`cprefetch_read`), so that their misses overlap before the search below uses them.
    tripletMatches.removeAll()
    Self.forEachDistinctMatch(in: tripletMatchKeys.buffer, seen: distinctTripletMatches) { key, approximate in
      let h = Int(key >> 56)
      let anchorFrame = lowestAnchorFrame + Int32(truncatingIfNeeded: (key >> 33) & 0x7F_FFFF)
      let reference = UInt32(truncatingIfNeeded: key >> 1)
      if active.contains(where: { $0.accepts(anchorFrame: anchorFrame, reference: reference, tolerance: tolerance) }) {
        return
      }
      let d = diagonal(hypothesis: h, anchorFrame: anchorFrame, reference: reference)
      let (a, b) = votes.slots(hypothesis: h, diagonal: d)
      votes.prefetch(a)
      votes.prefetch(b)
      queue.prefetch(cell: a)
      tripletMatches.append(
        TripletMatch(
          hypothesis: UInt8(h), approximate: approximate, anchorFrame: anchorFrame, reference: reference,
          diagonal: d, firstSlot: UInt32(a), secondSlot: UInt32(b)))
    }
    for m in tripletMatches {
      search(
        hypothesis: Int(m.hypothesis), anchorFrame: m.anchorFrame, targetFrame: targetFrame, reference: m.reference,
        diagonal: m.diagonal, slots: (Int(m.firstSlot), Int(m.secondSlot)), approximate: m.approximate)
    }
  }

  /// Calls `body` once with each distinct match among `keys` (`tripletMatchKey`s; a match is a key shifted right by
  /// one) and whether it is approximate: exact if any of its keys is. The exact keys come first, in their order in
  /// `keys`, then the approximate keys of the other matches, in theirs. `seen` is emptied first.
  @inline(__always)
  static func forEachDistinctMatch(
    in keys: UnsafeBufferPointer<UInt64>, seen: ScratchKeySet, _ body: (_ key: UInt64, _ approximate: Bool) -> Void
  ) {
    seen.removeAll()
    for approximateBit: UInt64 in 0...1 {
      for key in keys where key & 1 == approximateBit && seen.insert(key >> 1) { body(key, approximateBit == 1) }
    }
  }

  /// Counting sort of the indices of `commonLookups` by each of their hypotheses into `lookupsByHypothesis`, keeping
  /// their order within each hypothesis; `hypothesisRunStarts[h]` is where hypothesis h's run starts.
  private func orderLookupsByHypothesis() {
    lookupsByHypothesis.removeAll(keepingCapacity: true)
    hypothesisRunStarts.withUnsafeMutableBufferPointer { starts in
      for h in starts.indices { starts[h] = 0 }
      for l in commonLookups {
        for h in l.hypotheses { starts[h + 1] += 1 }
      }
      for h in 1..<starts.count { starts[h] += starts[h - 1] }
      lookupsByHypothesis.append(contentsOf: repeatElement(0, count: starts[starts.count - 1]))
      lookupsByHypothesis.withUnsafeMutableBufferPointer { order in
        // Each run's start serves as its fill cursor, and ends at the next run's start; then the starts move back.
        for (i, l) in commonLookups.enumerated() {
          for h in l.hypotheses {
            order[starts[h]] = Int32(i)
            starts[h] += 1
          }
        }
      }
      for h in stride(from: starts.count - 1, to: 0, by: -1) { starts[h] = starts[h - 1] }
      starts[0] = 0
    }
  }
}
