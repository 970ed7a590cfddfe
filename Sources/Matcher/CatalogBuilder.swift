import Foundation

/// Edits a catalog: adds reference signatures, removes tracks, and builds the immutable `Catalog` with its index.
///
/// One thread at a time. Editing an existing catalog recovers each track's hashes from the index, so the file needs
/// no second copy of them.
public final class CatalogBuilder {
  public let parameters: FingerprintParameters
  private let hasher: PairHasher
  private var tracks: [CatalogTrack] = []
  private var hashes: [String: [ReferenceHash]] = [:]
  /// The stop-hash cap of the catalog being edited: never lowered.
  private var previousStopHashCap = 0

  public init(parameters: FingerprintParameters = FingerprintParameters()) {
    self.parameters = parameters
    hasher = PairHasher(parameters: parameters)
  }

  /// Starts from an existing catalog's tracks and hashes.
  public convenience init(editing catalog: Catalog) {
    self.init(parameters: catalog.parameters)
    previousStopHashCap = catalog.stopHashCap
    tracks = catalog.tracks
    var perTrack = [[ReferenceHash]](repeating: [], count: catalog.tracks.count)
    for e in catalog.index.entries() {
      guard let t = catalog.trackIndex(containing: e.position) else { continue }
      perTrack[t].append(ReferenceHash(hash: e.hash, frame: e.position - catalog.tracks[t].globalStartFrame))
    }
    for (i, t) in catalog.tracks.enumerated() { hashes[t.key] = perTrack[i] }
  }

  public var trackCount: Int { tracks.count }

  public func contains(key: String) -> Bool { hashes[key] != nil }

  /// Adds a track from its reference signature (made with purpose `.reference`). A key already present is replaced.
  @discardableResult
  public func add(signature: Signature, key: String, sourcePath: String, metadata: TrackMetadata) -> CatalogTrack {
    precondition(signature.parameters == parameters, "signature made with other fingerprint parameters")
    let h = hasher.referenceHashes(of: signature.peaks)
    let track = CatalogTrack(
      key: key, sourcePath: sourcePath, metadata: metadata, durationSeconds: signature.durationSeconds,
      audibleStartSeconds: signature.audibleStartSeconds, audibleEndSeconds: signature.audibleEndSeconds,
      globalStartFrame: 0, frameCount: UInt32(signature.frameCount), hashCount: h.count, addedAt: Date())
    remove(key: key)
    tracks.append(track)
    hashes[key] = h
    return track
  }

  /// Changes a track's metadata; false when the key is unknown.
  @discardableResult
  public func updateMetadata(key: String, metadata: TrackMetadata) -> Bool {
    guard let i = tracks.firstIndex(where: { $0.key == key }) else { return false }
    tracks[i].metadata = metadata
    return true
  }

  /// Removes a track; returns it, or nil when the key is unknown.
  @discardableResult
  public func remove(key: String) -> CatalogTrack? {
    guard let i = tracks.firstIndex(where: { $0.key == key }) else { return nil }
    hashes[key] = nil
    return tracks.remove(at: i)
  }

  /// Lays the tracks out on the global frame axis and builds the index.
  public func build() throws(FormatError) -> Catalog {
    var laid = [CatalogTrack]()
    var entries = [(hash: UInt32, position: UInt32)]()
    entries.reserveCapacity(hashes.values.reduce(0) { $0 + $1.count })
    var next: UInt32 = 0
    for var t in tracks {
      t.globalStartFrame = next
      for h in hashes[t.key] ?? [] { entries.append((h.hash, next + h.frame)) }
      next += t.frameCount + Catalog.gapFrames
      laid.append(t)
    }
    let hashBits = HashLayout(parameters).totalBits
    let cap: Int
    (entries, cap) = Self.removingStopHashes(entries, hashBits: hashBits, minimumCap: previousStopHashCap)
    let positionBits = 32 - (hashBits - CatalogIndex.directoryBits(hashBits: hashBits, postingCount: entries.count))
    guard positionBits >= 32 || UInt64(next) < (UInt64(1) << UInt64(positionBits)) else {
      throw FormatError(
        path: "catalog", reason: "too large: \(tracks.count) tracks exceed the index's \(positionBits)-bit frame axis")
    }
    let index = CatalogIndex.build(hashBits: hashBits, entries: entries)
    return Catalog(parameters: parameters, tracks: laid, index: index, stopHashCap: cap)
  }

  /// Drops the hashes that occur far more often than the average (sustained notes, common intervals): like stop
  /// words, they match everywhere and tell nothing, and they would cost most of the lookup time.
  /// A hash is dropped when it has more than `max(12, 4 × mean, minimumCap)` postings; returns the cap used.
  static func removingStopHashes(
    _ entries: [(hash: UInt32, position: UInt32)], hashBits: Int, minimumCap: Int = 0
  ) -> (entries: [(hash: UInt32, position: UInt32)], cap: Int) {
    var counts = [UInt32](repeating: 0, count: 1 << hashBits)
    var distinct = 0
    for e in entries {
      if counts[Int(e.hash)] == 0 { distinct += 1 }
      counts[Int(e.hash)] &+= 1
    }
    guard distinct > 0 else { return (entries, minimumCap) }
    let cap = max(12, 4 * entries.count / distinct, minimumCap)
    return (entries.filter { counts[Int($0.hash)] <= UInt32(cap) }, cap)
  }
}
