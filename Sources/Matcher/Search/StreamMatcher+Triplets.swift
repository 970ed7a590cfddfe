/// The search for new plays through the catalog's triplet index: a broadcast peak's lookups of common hashes, taken
/// two by two under each speed hypothesis, are looked up as a triplet; each hit that both pairs' postings confirm is
/// two matches, passed to the search (`search`) as `TargetAgreement` would pass them.
extension StreamMatcher {
  func searchTriplets(_ triplets: TripletIndex, targetFrame: Int32) {
    guard commonLookups.count >= 2 else { return }
    orderLookupsByHypothesis()
    tripletMatches.removeAll(keepingCapacity: true)
    let frameMask = UInt32(1 << hasher.layout.frameBits) - 1
    let index = catalog.index
    for h in hypotheses.indices {
      let start = hypothesisRunStarts[h]
      let end = hypothesisRunStarts[h + 1]
      guard end - start >= 2 else { continue }
      for x in start..<(end - 1) {
        for y in (x + 1)..<end {
          let a = lookupsByHypothesis[x]
          let b = lookupsByHypothesis[y]
          guard a.anchorFrame != b.anchorFrame && a.hash != b.hash else { continue }
          // The triplet's posting is the target as the pair of the smaller hash places it.
          let (first, second) = a.hash < b.hash ? (a, b) : (b, a)
          triplets.forEachTarget(of: first.hash, second.hash) { target in
            let firstReference = target &- (first.hash & frameMask)
            var confirmed = false
            index.forEachPosting(of: first.hash, in: firstReference...firstReference) { _ in confirmed = true }
            guard confirmed else { return }
            // Within a frame, as `TargetAgreement` allows for the rounding of each pair's distance.
            let center = target &- (second.hash & frameMask)
            let near = (center == 0 ? 0 : center - 1)...(center == .max ? center : center + 1)
            index.forEachPosting(of: second.hash, in: near) { secondReference in
              tripletMatches.append(
                PeakMatch(
                  hypothesis: UInt8(h), anchorFrame: first.anchorFrame, reference: firstReference, target: target))
              tripletMatches.append(
                PeakMatch(
                  hypothesis: UInt8(h), anchorFrame: second.anchorFrame, reference: secondReference, target: target))
            }
          }
        }
      }
    }
    guard !tripletMatches.isEmpty else { return }
    // A match agreed with by several anchors is searched once; one a running play took is that play's already.
    tripletMatches.sort {
      ($0.hypothesis, $0.anchorFrame, $0.reference) < ($1.hypothesis, $1.anchorFrame, $1.reference)
    }
    let tolerance = settings.alignmentToleranceFrames
    var previous: PeakMatch?
    for m in tripletMatches {
      if let p = previous, p.hypothesis == m.hypothesis, p.anchorFrame == m.anchorFrame, p.reference == m.reference {
        continue
      }
      previous = m
      if active.contains(where: { $0.accepts(anchorFrame: m.anchorFrame, reference: m.reference, tolerance: tolerance) }
      ) {
        continue
      }
      search(
        hypothesis: Int(m.hypothesis), anchorFrame: m.anchorFrame, targetFrame: targetFrame, reference: m.reference)
    }
  }

  /// Counting sort of `commonLookups` by hypothesis into `lookupsByHypothesis`, keeping their order within each.
  private func orderLookupsByHypothesis() {
    for h in hypothesisRunStarts.indices { hypothesisRunStarts[h] = 0 }
    for l in commonLookups { hypothesisRunStarts[Int(l.hypothesis) + 1] += 1 }
    for h in 1..<hypothesisRunStarts.count { hypothesisRunStarts[h] += hypothesisRunStarts[h - 1] }
    lookupsByHypothesis.removeAll(keepingCapacity: true)
    lookupsByHypothesis.append(
      contentsOf: repeatElement(CommonLookup(hypothesis: 0, anchorFrame: 0, hash: 0), count: commonLookups.count))
    // Each run's start serves as its fill cursor, and ends at the next run's start; then the starts move back.
    for l in commonLookups {
      let h = Int(l.hypothesis)
      lookupsByHypothesis[hypothesisRunStarts[h]] = l
      hypothesisRunStarts[h] += 1
    }
    for h in stride(from: hypothesisRunStarts.count - 1, to: 0, by: -1) {
      hypothesisRunStarts[h] = hypothesisRunStarts[h - 1]
    }
    hypothesisRunStarts[0] = 0
  }
}
