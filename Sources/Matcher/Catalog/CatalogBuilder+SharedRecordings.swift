extension CatalogBuilder {
  /// The tracks of `keys` (in that order) that hold audio of an earlier track of `catalog` (`SharedRecording`), the
  /// catalog this builder built last: each is checked against the tracks before it that are not themselves reported,
  /// so of two copies added together, the second is reported.
  ///
  /// Each track's agreeing pairs are made from its hashes as `TripletIndex` makes them, and looked up in the
  /// catalog's triplet index: a lookup costs a few postings whatever the catalog's size (0.09 of other keys per key
  /// at 1,000 hours), so checking costs in proportion to the tracks checked, not to the catalog. `progress` gets the
  /// tracks checked so far.
  package func sharedRecordings(
    in catalog: Catalog, ofKeys keys: [String], progress: (Int) -> Void = { _ in }
  ) -> [SharedRecording] {
    let tracks = checkedTracks(ofKeys: keys)
    for t in tracks {
      precondition(
        catalog.tracks[t.index].key == orderedTracks[t.index].key, "a catalog that this builder did not build last")
    }
    return Self.sharedRecordings(of: tracks, in: catalog, progress: progress)
  }

  /// `sharedRecordings(in:ofKeys:)` in the catalog as the builder holds it now (`prepared`): where it edits an
  /// existing catalog, in that catalog's triplet index (less the tracks removed) and the added tracks' agreeing pairs,
  /// without making the edited catalog in memory.
  package func sharedRecordings(ofKeys keys: [String], progress: (Int) -> Void = { _ in }) throws(FormatError)
    -> [SharedRecording]
  {
    let edit: CatalogEdit
    switch try prepared() {
    case .built(let catalog): return sharedRecordings(in: catalog, ofKeys: keys, progress: progress)
    case .edited(let e): edit = e
    }
    guard edit.triplets != nil else { return sharedRecordings(in: try build(), ofKeys: keys, progress: progress) }
    let addedByKey = edit.addedTripletsByKey()
    let search = Self.SharedRecordingSearch(
      parameters: parameters, tracks: edit.tracks, keyBits: edit.base.triplets!.index.hashBits,
      lookUp: { edit.forEachTriplet(of: $0, addedByKey: addedByKey, $1) },
      trackIndex: { edit.trackIndex(containing: $0) })
    return Self.sharedRecordings(of: checkedTracks(ofKeys: keys), in: search, progress: progress)
  }

  /// The tracks of `keys` that the builder holds the hashes of (tracks added since it was made or opened), in that
  /// order: their indices in the catalog's order (`orderedTracks`), with their hashes.
  private func checkedTracks(ofKeys keys: [String]) -> [(index: Int, hashes: PackedReferenceHashes)] {
    keys.compactMap { key in
      guard let t = positions[key], let list = hashes[key] else { return nil }
      return (t, list)
    }
  }

  /// Every track of `catalog` that holds audio of an earlier one, as `sharedRecordings(in:ofKeys:)` finds them for
  /// tracks added one by one: for a catalog built before `catalog add` looked for them. `progress` gets the tracks
  /// checked so far.
  package static func sharedRecordings(in catalog: Catalog, progress: (Int) -> Void = { _ in }) -> [SharedRecording] {
    let tracks = recoveredHashes(of: catalog).enumerated().map { (index: $0.offset, hashes: $0.element) }
    return sharedRecordings(of: tracks, in: catalog, progress: progress)
  }

  /// What the check reads: the tracks laid on the frame axis, and the postings of a triplet key (of `keyBits`).
  struct SharedRecordingSearch {
    let parameters: FingerprintParameters
    let tracks: [CatalogTrack]
    let keyBits: Int
    let lookUp: (UInt32, (UInt32) -> Void) -> Void
    let trackIndex: (UInt32) -> Int?

    init(
      parameters: FingerprintParameters, tracks: [CatalogTrack], keyBits: Int,
      lookUp: @escaping (UInt32, (UInt32) -> Void) -> Void, trackIndex: @escaping (UInt32) -> Int?
    ) {
      self.parameters = parameters
      self.tracks = tracks
      self.keyBits = keyBits
      self.lookUp = lookUp
      self.trackIndex = trackIndex
    }

    /// A catalog's tracks and triplet index; nil without one (format version 1).
    init?(_ catalog: Catalog) {
      guard let triplets = catalog.triplets else { return nil }
      self.init(
        parameters: catalog.parameters, tracks: catalog.tracks, keyBits: triplets.index.hashBits,
        lookUp: { triplets.index.forEachPosting(of: $0, $1) }, trackIndex: { catalog.trackIndex(containing: $0) })
    }
  }

  /// The `tracks` (indices in `catalog.tracks`, with their hashes), in order, that hold audio of an earlier track of
  /// `catalog` that is not itself reported.
  private static func sharedRecordings(
    of tracks: [(index: Int, hashes: PackedReferenceHashes)], in catalog: Catalog, progress: (Int) -> Void
  ) -> [SharedRecording] {
    guard let search = SharedRecordingSearch(catalog) else { return [] }
    return sharedRecordings(of: tracks, in: search, progress: progress)
  }

  private static func sharedRecordings(
    of tracks: [(index: Int, hashes: PackedReferenceHashes)], in search: SharedRecordingSearch,
    progress: (Int) -> Void
  ) -> [SharedRecording] {
    var reported = Set<Int>()
    var found: [SharedRecording] = []
    for (done, track) in tracks.enumerated() {
      progress(done)
      if let shared = sharedRecording(ofTrack: track.index, hashes: track.hashes, in: search, excluding: reported) {
        found.append(shared)
        reported.insert(track.index)
      }
    }
    progress(tracks.count)
    return found
  }

  /// Track `t`'s best agreement with an earlier track not in `excluded`, when it is a `SharedRecording`.
  static func sharedRecording(
    ofTrack t: Int, hashes list: PackedReferenceHashes, in search: SharedRecordingSearch, excluding excluded: Set<Int>
  ) -> SharedRecording? {
    let tracks = search.tracks
    let start = tracks[t].globalStartFrame
    let (pairs, _) = TripletIndex.join(count: list.count, layout: HashLayout(search.parameters)) { emit in
      list.forEachHash { hash, frame in emit(hash, start + frame) }
    }
    // Each pair held by an earlier track: that track above its offset (biased to be positive), and where the pair
    // lies in this track.
    var agreements: [(trackAndOffset: UInt64, frame: UInt32)] = []
    var indexed = 0
    let shift = UInt32(32 - search.keyBits)
    for (key, target) in pairs {
      var own = false
      search.lookUp(key >> shift) { position in
        if position == target {
          own = true
          return
        }
        guard let u = search.trackIndex(position), u < t, !excluded.contains(u) else { return }
        let offset = Int64(position - tracks[u].globalStartFrame) - Int64(target - start)
        agreements.append((UInt64(u) << 32 | UInt64(offset + (1 << 31)), target - start))
      }
      if own { indexed += 1 }
    }
    agreements.sort { $0.trackAndOffset < $1.trackAndOffset }
    // The densest window of three offsets, a frame either side, of one earlier track: a copy's pairs move by a frame
    // where its peaks do.
    var best = (count: 0, first: 0, end: 0)
    var lo = 0
    for hi in agreements.indices {
      while agreements[hi].trackAndOffset - agreements[lo].trackAndOffset > 2 { lo += 1 }
      if hi - lo + 1 > best.count { best = (hi - lo + 1, lo, hi + 1) }
    }
    guard best.count > 0, best.count >= SharedRecording.minSharedPairs,
      Double(best.count) >= SharedRecording.minShare * Double(indexed)
    else { return nil }
    let window = agreements[best.first..<best.end]
    let u = Int(window.first!.trackAndOffset >> 32)
    let offsets = window.map { Double(Int64($0.trackAndOffset & 0xFFFF_FFFF) - (1 << 31)) }
    let frames = window.map(\.frame)
    let seconds = 1 / search.parameters.framesPerSecond
    return SharedRecording(
      trackIndex: t, earlierTrackIndex: u, sharedPairs: best.count, indexedPairs: indexed,
      offsetSeconds: offsets.reduce(0, +) / Double(offsets.count) * seconds,
      sharedSeconds: Double(frames.max()! - frames.min()!) * seconds)
  }
}
