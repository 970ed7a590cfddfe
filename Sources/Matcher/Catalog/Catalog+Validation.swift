import Common

/// The checks a catalog file passes before it is used. The checksum only detects accidents: a file whose insides were
/// changed and resealed (or written by a faulty tool) passes it. So every value the matcher relies on is checked on
/// load: the fingerprint parameters, the index geometry, each directory offset, each posting's frame, and the tracks'
/// layout on the frame axis. The checks cost one pass over the directory and one over the postings, a few
/// milliseconds per hundred megabytes, next to the checksum's pass over the whole file.
extension Catalog {
  /// The error for a catalog whose insides do not hold together, naming what is wrong and the fix.
  static func damaged(_ path: String, _ what: String) -> FormatError {
    FormatError(
      path: path,
      reason: "damaged catalog: \(what). Restore a backup, or move this file aside and build the catalog again with "
        + "`broadcast-monitor catalog add --catalog \(path) AUDIO...`")
  }
}

extension Catalog.IndexGeometry {
  /// Checks that the directory and the postings' bits divide the hash as `CatalogIndex.build` divides it: a directory
  /// of 0…hashBits bits, the rest of the hash above the frame in each posting, at least one bit of frame.
  func validate(path: String, name: String) throws(FormatError) {
    guard (0...hashBits).contains(directoryBits) else {
      throw Catalog.damaged(path, "the \(name) has a directory of \(directoryBits) bits, for \(hashBits)-bit hashes")
    }
    let framesBits = 32 - (hashBits - directoryBits)
    guard positionBits == framesBits, positionBits >= 1 else {
      throw Catalog.damaged(
        path,
        "the \(name) has postings of \(positionBits) frame bits, where \(hashBits)-bit hashes and a "
          + "\(directoryBits)-bit directory leave \(framesBits)")
    }
    guard directoryCount == (1 << directoryBits) + 1 else {
      throw Catalog.damaged(
        path,
        "the \(name) has \(directoryCount) directory slots, where a \(directoryBits)-bit directory has "
          + "\((1 << directoryBits) + 1)")
    }
    if let directoryBlockBits, !(0...32).contains(directoryBlockBits) {
      throw Catalog.damaged(path, "the \(name) directory has blocks of \(directoryBlockBits) bits of slots")
    }
  }
}

extension Catalog.Header {
  /// The shape of the pair index, which the header keeps at its top level.
  var pairGeometry: Catalog.IndexGeometry {
    Catalog.IndexGeometry(
      hashBits: hashBits, directoryBits: directoryBits, positionBits: positionBits, directoryCount: directoryCount,
      postingCount: postingCount, directoryBlockBits: directoryBlockBits)
  }

  /// End of the frame axis: the last track's end and the gap after it (where the next track added would start).
  var axisEnd: UInt64 {
    tracks?.last.map { UInt64($0.globalStartFrame) + UInt64($0.frameCount) + UInt64(Catalog.gapFrames) } ?? 0
  }

  /// Checks the parameters, the index geometry, the tracks and the stop-hash cap against each other. The index's own
  /// bytes are checked by `CatalogIndex.validate`.
  func validate(path: String) throws(FormatError) {
    do {
      try parameters.validate()
    } catch {
      throw Catalog.damaged(path, "the header's \(error.keyPath) \(error.reason)")
    }
    let layoutBits = HashLayout(parameters).totalBits
    guard hashBits == layoutBits else {
      throw Catalog.damaged(
        path, "the index has \(hashBits)-bit hashes, where its fingerprint parameters make \(layoutBits)-bit ones")
    }
    try pairGeometry.validate(path: path, name: "index")
    if let triplets {
      guard (1...32).contains(triplets.hashBits) else {
        throw Catalog.damaged(path, "the triplet index has \(triplets.hashBits)-bit keys")
      }
      try triplets.validate(path: path, name: "triplet index")
    }
    if let stopHashCap, !(0...Int(UInt32.max)).contains(stopHashCap) {
      throw Catalog.damaged(path, "a stop-hash cap of \(stopHashCap) postings")
    }
    try validateTracks(path: path)
  }

  /// Each track: a unique key, a duration and frame count that agree, its audible part inside it, and its place on
  /// the frame axis after the previous track and its gap, inside the frames a posting can hold.
  private func validateTracks(path: String) throws(FormatError) {
    let axisLimit = UInt64(1) << UInt64(positionBits)
    let hopSeconds = Double(parameters.hopSizeSamples) / Double(parameters.sampleRateHz)
    // Longest track: as many frames as a posting can address; beyond it a sample count would not fit a Double exactly.
    let maxSeconds = Double(axisLimit) * hopSeconds
    let tracks = self.tracks ?? []
    var keys = Set<String>(minimumCapacity: tracks.count)
    var previousEnd: UInt64?
    for (i, t) in tracks.enumerated() {
      let name = "track \(i + 1) of \(tracks.count) (key \(t.key))"
      guard keys.insert(t.key).inserted else { throw Catalog.damaged(path, "\(name) repeats an earlier key") }
      guard t.durationSeconds >= 0, t.durationSeconds <= maxSeconds else {
        throw Catalog.damaged(path, "\(name) lasts \(t.durationSeconds) s")
      }
      let samples = Int((t.durationSeconds * Double(parameters.sampleRateHz)).rounded())
      let frames = max(0, (samples - parameters.fftSizeSamples) / parameters.hopSizeSamples + 1)
      guard abs(frames - Int(t.frameCount)) <= 1 else {
        throw Catalog.damaged(
          path, "\(name) has \(t.frameCount) frames, where its \(t.durationSeconds) s make \(frames)")
      }
      guard t.audibleStartSeconds >= 0, t.audibleStartSeconds <= t.audibleEndSeconds,
        t.audibleEndSeconds <= t.durationSeconds + hopSeconds
      else {
        throw Catalog.damaged(
          path,
          "\(name) is audible from \(t.audibleStartSeconds) s to \(t.audibleEndSeconds) s of its "
            + "\(t.durationSeconds) s")
      }
      guard t.loudEndSeconds >= t.audibleStartSeconds, t.loudEndSeconds <= t.audibleEndSeconds else {
        throw Catalog.damaged(
          path,
          "\(name) is loud until \(t.loudEndSeconds) s, outside its audible span (\(t.audibleStartSeconds) s to "
            + "\(t.audibleEndSeconds) s)")
      }
      guard t.hashCount >= 0 else { throw Catalog.damaged(path, "\(name) has \(t.hashCount) hashes") }
      let start = UInt64(t.globalStartFrame)
      if let previousEnd, start < previousEnd + UInt64(Catalog.gapFrames) {
        throw Catalog.damaged(
          path,
          "\(name) starts at frame \(start) of the frame axis, before the end of the previous track and the gap "
            + "after it (frame \(previousEnd + UInt64(Catalog.gapFrames)))")
      }
      let end = start + UInt64(t.frameCount)
      guard end + UInt64(Catalog.gapFrames) < axisLimit else {
        throw Catalog.damaged(
          path, "\(name) ends at frame \(end), beyond the \(positionBits)-bit frame axis of the postings")
      }
      previousEnd = end
    }
  }
}

extension CatalogIndex {
  /// Checks the directory (starts at 0, never decreases, ends at the number of postings) and every posting's frame
  /// (before `axisEnd`, the end of the tracks' frame axis), given the highest of them (`lastFrame(in:mask:)`, which
  /// loading finds in the checksum's pass). Linear: one pass over the directory.
  func validate(path: String, name: String, axisEnd: UInt64, lastFrame last: UInt32) throws(FormatError) {
    try Self.validateDirectory(
      directory, postingCount: postings.count, path: path, name: name,
      knownNeverToDecrease: directory.surelyNeverDecreases())
    if !postings.isEmpty && UInt64(last) >= axisEnd {
      throw Catalog.damaged(
        path,
        "a posting of the \(name) at frame \(last), beyond the tracks' frame axis (which ends at frame \(axisEnd))")
    }
  }

  /// The highest frame of `postings` (0 when there are none), their frames being their bits under `mask`.
  static func lastFrame(in postings: UnsafeBufferPointer<UInt32>, mask: UInt32) -> UInt32 {
    var last: UInt32 = 0
    for p in postings { last = Swift.max(last, p & mask) }
    return last
  }

  /// Checks a directory: it starts at 0, never decreases, and ends at `postingCount`. `knownNeverToDecrease` skips the
  /// pass over every slot, for a directory already found never to decrease (`SlotDirectory.surelyNeverDecreases`).
  static func validateDirectory<D: RandomAccessCollection>(
    _ directory: D, postingCount: Int, path: String, name: String, knownNeverToDecrease: Bool = false
  ) throws(FormatError) where D.Element == UInt32, D.Index == Int {
    guard directory.first == 0 else {
      throw Catalog.damaged(path, "the \(name) directory starts at posting \(directory.first ?? 0), not 0")
    }
    if !knownNeverToDecrease {
      // The slot that decreases is looked for only once a pass found one, so that the common case stays one tight
      // loop.
      var decreases = false
      var previous: UInt32 = 0
      for offset in directory {
        decreases = decreases || offset < previous
        previous = offset
      }
      if decreases, let slot = (1..<directory.count).first(where: { directory[$0] < directory[$0 - 1] }) {
        throw Catalog.damaged(
          path,
          "the \(name) directory goes back from posting \(directory[slot - 1]) to \(directory[slot]) at slot \(slot)")
      }
    }
    let end = directory.last ?? 0
    guard Int(end) == postingCount else {
      throw Catalog.damaged(
        path, "the \(name) directory ends at posting \(end), where the \(name) has \(postingCount) postings")
    }
  }
}
