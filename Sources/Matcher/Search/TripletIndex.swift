/// The catalog's pairs that agree, indexed by their two hashes: the search for new plays at the scale of a station's
/// library.
///
/// Where the broadcast is a catalog track, two anchors of a broadcast peak place the peak at the same reference frame
/// (`TargetAgreement`), and in a catalog of hundreds of hours nearly every other match of a common hash is chance.
/// Found at query time, that agreement costs reading every posting of both hashes (hundreds each at 1,000 hours), so
/// the search's cost grows with the catalog. Here it was found once, when the catalog was built: for every two pairs
/// of the catalog that place their target within a frame of each other, from different anchors, with target pitches
/// (anchor pitch plus interval, as their hashes quantize them) within the two quantization steps of each other, one
/// posting under the key of their two hashes. A broadcast peak then costs one lookup per two of its anchors, whatever
/// the catalog's size, and reads what is stored under their keys: in a catalog of thousands of hours, common keys hold
/// many chance postings, and the search drops the hits of a key with more than `MatcherTuning.maxTripletKeyHits`.
///
/// The posting is the target frame implied by the pair of the smaller hash (its anchor's frame plus its distance).
/// Keys are the top bits of a mix of the two hashes, so unrelated pairs share a key by chance: the search checks each
/// hit against both hashes' postings in the pair index (`CatalogIndex.forEachPosting(of:in:)`), so that what it
/// finds is exactly what `TargetAgreement` finds in the same pair index, less pairs whose targets differ in pitch.
///
/// Derived from the pair index (`derive`) whenever a catalog is built or edited, and stored in the catalog file.
struct TripletIndex: @unchecked Sendable {
  let index: CatalogIndex

  /// The key of two pair hashes, in either order.
  @inline(__always)
  func key(_ a: UInt32, _ b: UInt32) -> UInt32 { Self.key(a, b, bits: index.hashBits) }

  @inline(__always)
  static func key(_ a: UInt32, _ b: UInt32, bits: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: mixed(a, b) >> UInt64(64 - bits))
  }

  /// Both hashes, smaller first, mixed so that every bit depends on both (MurmurHash3's finalizer).
  @inline(__always)
  private static func mixed(_ a: UInt32, _ b: UInt32) -> UInt64 {
    var x = UInt64(max(a, b)) << 32 | UInt64(min(a, b))
    x ^= x >> 33
    x &*= 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x &*= 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }

  /// Calls `body` with each target frame stored under the key of `a` and `b` (to be checked against the pairs).
  @inline(__always)
  func forEachTarget(of a: UInt32, _ b: UInt32, _ body: (UInt32) -> Void) {
    index.forEachPosting(of: key(a, b), body)
  }

  var bytes: Int { index.bytes }

  /// The agreeing pairs of `pairs`, an index of `layout`'s hashes.
  static func derive(from pairs: CatalogIndex, layout: HashLayout) -> TripletIndex {
    let (entries, largestTarget) = join(count: pairs.postings.count, layout: layout) { pairs.forEachEntry($0) }
    let positionBits = max(1, UInt32.bitWidth - largestTarget.leadingZeroBitCount)
    // As many key bits as the postings leave beside the target frame, above the directory's.
    let directoryBits = CatalogIndex.directoryBits(hashBits: 32, postingCount: entries.count)
    let keyBits = min(32, directoryBits + 32 - positionBits)
    return TripletIndex(index: CatalogIndex.build(hashBits: keyBits, entries: shortened(entries, to: keyBits)))
  }

  /// The agreeing pairs of `added` (the pairs of tracks appended after every track of `base`'s catalog), as `base`'s
  /// postings, in time proportional to the added pairs, with the largest target frame among them: what appending the
  /// tracks adds to `base` (`IndexMerge`), where its position bits hold them (`CatalogEdit`). A pair that an edit
  /// dropped (a hash grown common enough to be a stop hash) leaves its agreeing pairs in `base`: the search never
  /// looks them up, as it never looks the dropped hash up.
  static func appendedEntries(
    _ added: [(hash: UInt32, position: UInt32)], to base: TripletIndex, layout: HashLayout
  ) -> (entries: [(hash: UInt32, position: UInt32)], largestTarget: UInt32) {
    let (entries, largestTarget) = join(count: added.count, layout: layout) { emit in
      for e in added { emit(e.hash, e.position) }
    }
    return (shortened(entries, to: base.index.hashBits), largestTarget)
  }

  private static func shortened(_ entries: [(hash: UInt32, position: UInt32)], to keyBits: Int) -> [(
    hash: UInt32, position: UInt32
  )] {
    let shift = UInt32(32 - keyBits)
    return entries.map { ($0.hash >> shift, $0.position) }
  }

  /// The agreeing pairs among `count` pairs that `forEachPair` gives as (hash, anchor's global frame), with 32-bit
  /// keys, in target order; and the largest target frame.
  ///
  /// Every pair is placed at its target frame, the pairs are sorted by it (`RadixSort`), and each is joined with those
  /// within a frame before it. Linear but for the sort; 16 bytes a pair while it runs, besides the result.
  static func join(
    count n: Int, layout: HashLayout, _ forEachPair: ((UInt32, UInt32) -> Void) -> Void
  ) -> (entries: [(hash: UInt32, position: UInt32)], largestTarget: UInt32) {
    let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, n))
    let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, n))
    let histograms = UnsafeMutablePointer<Int>.allocate(capacity: RadixSort.histogramCount)
    defer {
      keys.deallocate()
      scratch.deallocate()
      histograms.deallocate()
    }
    let frameMask = UInt32(1 << layout.frameBits) - 1
    var count = 0
    forEachPair { hash, position in
      guard count < n else { return }
      keys[count] = UInt64(position &+ (hash & frameMask)) << 32 | UInt64(hash)
      count += 1
    }
    RadixSort.sort(keys, count: count, byFieldAt: 32, scratch: scratch, histograms: histograms)

    var entries = [(hash: UInt32, position: UInt32)]()
    entries.reserveCapacity(count)
    agreeingPairs(sorted: keys, count: count, layout: layout) { entries.append(($0, $1)) }
    let largestTarget = count > 0 ? UInt32(truncatingIfNeeded: keys[count - 1] >> 32) : 0
    return (entries, largestTarget)
  }

  /// The rule of agreeing pairs, for `join` and the bounded build (`derive(from:tracks:layout:runPairs:)`), over
  /// pairs sorted by target frame (keys: target frame above the hash): for each pair, the pairs within a frame before
  /// it, from another anchor, whose target pitches are within the two quantization steps; `body` gets each one's
  /// 32-bit key and target frame.
  @inline(__always)
  static func agreeingPairs(
    sorted keys: UnsafeMutablePointer<UInt64>, count: Int, layout: HashLayout, _ body: (UInt32, UInt32) -> Void
  ) {
    let frameMask = UInt32(1 << layout.frameBits) - 1
    let intervalShift = UInt32(layout.frameBits)
    let anchorShift = UInt32(layout.frameBits + layout.intervalBits)
    let intervalMask = UInt32(1 << layout.intervalBits) - 1
    let tolerance = layout.anchorStep + layout.intervalStep
    @inline(__always) func targetPitch(_ hash: UInt32) -> Float {
      Float(hash >> anchorShift) * layout.anchorStep + Float((hash >> intervalShift) & intervalMask)
        * layout.intervalStep
    }
    for i in 0..<count {
      let ti = UInt32(truncatingIfNeeded: keys[i] >> 32)
      let hi = UInt32(truncatingIfNeeded: keys[i])
      var j = i - 1
      while j >= 0 {
        let tj = UInt32(truncatingIfNeeded: keys[j] >> 32)
        guard ti - tj <= 1 else { break }
        let hj = UInt32(truncatingIfNeeded: keys[j])
        if hi != hj && ti &- (hi & frameMask) != tj &- (hj & frameMask)
          && abs(targetPitch(hi) - targetPitch(hj)) < tolerance
        {
          body(key(hi, hj, bits: 32), hi < hj ? ti : tj)
        }
        j -= 1
      }
    }
  }
}
