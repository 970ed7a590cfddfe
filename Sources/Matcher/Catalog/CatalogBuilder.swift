import Common
import Foundation

/// Edits a catalog: adds reference signatures, removes tracks, and builds the immutable `Catalog` with its index.
///
/// One thread at a time. Editing an existing catalog keeps its index: tracks removed (or replaced) are cut from the
/// frame axis and the later ones moved down, tracks added are laid after them, and the postings are merged in a pass
/// over the index as the file is written (`CatalogEdit`), so an edit costs a few passes over the catalog's postings and
/// no layout of its tracks.
public final class CatalogBuilder {
  public let parameters: FingerprintParameters
  private let hasher: PairHasher
  private var tracks: [CatalogTrack] = []
  /// Each track's place in `tracks`, by key.
  private(set) var positions: [String: Int] = [:]
  /// The hashes of every track not in `base`, 4 bytes each (`PackedReferenceHashes`).
  private(set) var hashes: [String: PackedReferenceHashes] = [:]
  /// The catalog being edited: its tracks that are kept, unchanged but for metadata, are `tracks[..<baseTracksKept]`,
  /// in its order. Nil for a new catalog.
  private var base: Catalog?
  private var baseTracksKept = 0
  /// The tracks of `base` removed or replaced, by key.
  private var removedFromBase: Set<String> = []
  /// The stop-hash cap of the catalog being edited: never lowered.
  private var previousStopHashCap = 0

  /// The long steps of making a catalog: laying a new one out (a minute or more at 1,000 hours), or reading the
  /// postings that an edited one keeps (seconds at 10,000 hours).
  public enum Step: Sendable {
    /// The postings of the edited catalog that its removed tracks leave, counted (`remove`).
    case readingIndex
    /// The pair index, built from every track's hashes.
    case pairIndex
    /// The triplet index, derived from the pair index.
    case tripletIndex
  }

  /// Called on the builder's thread with each step and the share of it done (0 to 1), at most every million postings
  /// or so.
  public var progress: ((Step, Double) -> Void)?

  public init(parameters: FingerprintParameters = FingerprintParameters()) {
    self.parameters = parameters
    hasher = PairHasher(parameters: parameters)
  }

  /// Starts from an existing catalog's tracks and index.
  public convenience init(editing catalog: Catalog) {
    self.init(parameters: catalog.parameters)
    previousStopHashCap = catalog.stopHashCap
    tracks = catalog.tracks
    for (i, t) in tracks.enumerated() { positions[t.key] = i }
    base = catalog
    baseTracksKept = tracks.count
  }

  public var trackCount: Int { tracks.count }

  public func contains(key: String) -> Bool { positions[key] != nil }

  /// The keys of the tracks.
  public var keys: Set<String> { Set(positions.keys) }

  /// Adds a track from its reference signature (made with purpose `.reference`). A key already present is replaced.
  @discardableResult
  public func add(signature: Signature, key: String, sourcePath: String, metadata: TrackMetadata) -> CatalogTrack {
    precondition(signature.parameters == parameters, "signature made with other fingerprint parameters")
    let h = hasher.referenceHashes(of: signature.peaks)
    let track = CatalogTrack(
      key: key, sourcePath: sourcePath, metadata: metadata, durationSeconds: signature.durationSeconds,
      audibleStartSeconds: signature.audibleStartSeconds, audibleEndSeconds: signature.audibleEndSeconds,
      loudEndSeconds: signature.loudEndSeconds, globalStartFrame: 0, frameCount: UInt32(signature.frameCount),
      hashCount: h.count, addedAt: Date())
    remove(key: key)
    current = nil
    positions[key] = tracks.count
    tracks.append(track)
    hashes[key] = PackedReferenceHashes(h, hashBits: hashBits)
    return track
  }

  /// Changes a track's metadata; false when the key is unknown.
  @discardableResult
  public func updateMetadata(key: String, metadata: TrackMetadata) -> Bool {
    guard let i = positions[key] else { return false }
    tracks[i].metadata = metadata
    current = nil
    return true
  }

  /// Removes a track; returns it, or nil when the key is unknown.
  @discardableResult
  public func remove(key: String) -> CatalogTrack? { remove(keys: [key]).first }

  /// Removes the tracks of `keys`; returns them in the catalog's order, without the unknown keys. One pass over the
  /// tracks, however many are removed: removing them one by one moved and renumbered every later track each time,
  /// 180 million dictionary updates for 1,000 tracks of the 10,000 h catalog.
  @discardableResult
  public func remove(keys: some Sequence<String>) -> [CatalogTrack] {
    let doomed = Set(keys.filter { positions[$0] != nil })
    guard !doomed.isEmpty else { return [] }
    current = nil
    var removed: [CatalogTrack] = []
    var kept: [CatalogTrack] = []
    kept.reserveCapacity(tracks.count - doomed.count)
    var baseKept = 0
    for (i, t) in tracks.enumerated() {
      if doomed.contains(t.key) {
        removed.append(t)
        if i < baseTracksKept { removedFromBase.insert(t.key) }
        hashes[t.key] = nil
        positions[t.key] = nil
      } else {
        if i < baseTracksKept { baseKept += 1 }
        positions[t.key] = kept.count
        kept.append(t)
      }
    }
    tracks = kept
    baseTracksKept = baseKept
    return removed
  }

  /// Each track's hashes, in `catalog.tracks`' order, recovered from its index (but for the stop hashes it dropped).
  static func recoveredHashes(of catalog: Catalog, progress: (Double) -> Void = { _ in }) -> [PackedReferenceHashes] {
    var perTrack = [PackedReferenceHashes](
      repeating: PackedReferenceHashes(hashBits: HashLayout(catalog.parameters).totalBits), count: catalog.tracks.count)
    let total = Double(max(1, catalog.index.postings.count))
    var done = 0
    catalog.index.forEachEntry { hash, position in
      done += 1
      if done & Self.progressPostingsMask == 0 { progress(Double(done) / total) }
      guard let t = catalog.trackIndex(containing: position) else { return }
      perTrack[t].append(hash: hash, frame: position - catalog.tracks[t].globalStartFrame)
    }
    progress(1)
    return perTrack
  }

  /// Progress is reported once per 2^20 postings (about a million): often enough for a line that moves, rarely enough
  /// to cost nothing.
  static let progressPostingsMask = (1 << 20) - 1

  private var hashBits: Int { HashLayout(parameters).totalBits }

  /// Lays the tracks out on the global frame axis and builds the index: the catalog being edited keeps its layout and
  /// index, less the tracks removed and with the tracks added after it (`CatalogEdit`).
  public func build() throws(FormatError) -> Catalog {
    switch try prepared() {
    case .built(let catalog): return catalog
    case .edited(let edit):
      let catalog = edit.catalog()
      current = .built(catalog)
      return catalog
    }
  }

  /// The catalog `build` makes: built (a new catalog), or an edit of an existing one, to be written without being
  /// made in memory (`CatalogEdit`).
  enum Prepared {
    case built(Catalog)
    case edited(CatalogEdit)
  }

  /// The catalog as the builder holds it now, made once for every use until the next edit (`build`, `write`,
  /// `sharedRecordings(ofKeys:)`).
  private var current: Prepared?

  /// Makes the catalog as the builder holds it now (`prepared`), so that its long steps run, and report `progress`,
  /// before its next use.
  package func prepare() throws(FormatError) { _ = try prepared() }

  /// The catalog as the builder holds it now (`current`), made if it is not.
  func prepared() throws(FormatError) -> Prepared {
    if let current { return current }
    let made: Prepared
    if let base { made = .edited(try editing(base)) } else { made = .built(try fullBuild()) }
    current = made
    return made
  }

  /// Writes the catalog to `url` (`Catalog.write(to:progress:)`): an edited catalog is merged into the file as it is
  /// written, without being made in memory.
  public func write(to url: URL, progress: (_ written: Int, _ total: Int) -> Void = { _, _ in }) throws {
    switch try prepared() {
    case .built(let catalog): try catalog.write(to: url, progress: progress)
    case .edited(let edit): try edit.write(to: url, progress: progress)
    }
  }

  /// The tracks in the catalog's order (the indices of `SharedRecording`), with their keys, paths and metadata; their
  /// frames are laid out in the catalog that `build` makes.
  public var orderedTracks: [CatalogTrack] { tracks }

  /// A new catalog: every track laid out and indexed.
  ///
  /// The index is built in place from the tracks' packed hashes, in two passes over them (`CatalogIndex.build`), and
  /// the triplet index a run of tracks at a time (`TripletIndex.derive(from:tracks:layout:)`): the build needs little
  /// memory besides the hashes and the two indexes themselves (8.9 GB at 10,000 hours, 15 bytes per posting, where a
  /// list of entries, its filtered copy and the triplet index's sort took 37 to 49 bytes per posting).
  private func fullBuild() throws(FormatError) -> Catalog {
    var laid = tracks
    var next: UInt64 = 0
    for i in laid.indices {
      let length = UInt64(laid[i].frameCount) + UInt64(Catalog.gapFrames)
      guard next + length <= UInt64(UInt32.max) else { throw tooLarge(positionBits: 32, axisFrames: next + length) }
      laid[i].globalStartFrame = UInt32(next)
      next += length
    }
    let hashBits = self.hashBits
    let lists = laid.map { hashes[$0.key] }
    // The stop-hash rule (`removingStopHashes`), on counts alone.
    var counts = [UInt32](repeating: 0, count: 1 << hashBits)
    var total = 0
    counts.withUnsafeMutableBufferPointer { c in
      for list in lists {
        list?.forEachHash { hash, _ in c[Int(hash)] &+= 1 }
        total += list?.count ?? 0
      }
    }
    guard total <= Int(UInt32.max) else { throw tooManyPostings(total) }
    let cap = counts.withUnsafeBufferPointer { Self.stopHashCap(counts: $0, minimumCap: previousStopHashCap) }
    let kept = counts.reduce(0) { $0 + ($1 <= UInt32(cap) ? Int($1) : 0) }
    try checkFrameAxis(end: UInt32(next), postingCount: kept)
    // `build` reads the entries twice: the first pass is the step's first half.
    var pass = 0
    let index = counts.withUnsafeBufferPointer { c in
      CatalogIndex.build(hashBits: hashBits, postingCount: kept) { emit in
        var done = 0
        for (t, list) in zip(laid, lists) {
          let start = t.globalStartFrame
          list?.forEachHash { hash, frame in
            if c[Int(hash)] <= UInt32(cap) { emit(hash, start + frame) }
          }
          let before = done
          done += list?.count ?? 0
          if before >> 20 != done >> 20 { progress?(.pairIndex, (Double(pass) + Double(done) / Double(total)) / 2) }
        }
        pass += 1
      }
    }
    progress?(.pairIndex, 1)
    let triplets = TripletIndex.derive(from: index, tracks: laid, layout: HashLayout(parameters)) {
      progress?(.tripletIndex, $0)
    }
    return Catalog(parameters: parameters, tracks: laid, index: index, stopHashCap: cap, triplets: triplets)
  }

  /// The catalog `base` less its removed tracks, cut from the frame axis, with the tracks added laid after its last
  /// kept one, and their postings merged into its index. The stop-hash rule is applied to the counts of the whole, as
  /// a full build of those tracks applies it; a removal never drops a hash, since counts only fall and the cap never
  /// does, and never restores one, whose postings are gone.
  private func editing(_ base: Catalog) throws(FormatError) -> CatalogEdit {
    let cut = AxisCut(removing: base.tracks.filter { removedFromBase.contains($0.key) }.map(AxisCut.span(of:)))
    var laid = tracks
    for i in 0..<baseTracksKept { laid[i].globalStartFrame = cut.moved(laid[i].globalStartFrame)! }
    // A loaded catalog's axis ends, gap included, inside 32 bits (`Catalog+Validation`); what is added may not fit.
    var next = laid[..<baseTracksKept].last.map { $0.globalStartFrame + $0.frameCount + Catalog.gapFrames } ?? 0
    var entries = [(hash: UInt32, position: UInt32)]()
    for i in baseTracksKept..<laid.count {
      laid[i].globalStartFrame = next
      hashes[laid[i].key]?.forEachHash { hash, frame in entries.append((hash, next + frame)) }
      let length = UInt64(laid[i].frameCount) + UInt64(Catalog.gapFrames)
      guard UInt64(next) + length <= UInt64(UInt32.max) else {
        throw tooLarge(positionBits: 32, axisFrames: UInt64(next) + length)
      }
      next += UInt32(length)
    }
    var counts = cut.isEmpty ? base.index.postingCountsByHash() : keptPostingCounts(of: base.index, cut: cut)
    for e in entries { counts[Int(e.hash)] &+= 1 }
    let cap = counts.withUnsafeBufferPointer { Self.stopHashCap(counts: $0, minimumCap: previousStopHashCap) }
    var dropped = Set<UInt32>()
    for (hash, count) in counts.enumerated() where count > UInt32(cap) { dropped.insert(UInt32(hash)) }
    // Back to the base's kept postings alone, which the merge counts per directory slot from these.
    for e in entries { counts[Int(e.hash)] &-= 1 }
    if !dropped.isEmpty { entries.removeAll { dropped.contains($0.hash) } }
    let edit = CatalogEdit(
      base: base, tracks: laid, cut: cut, entries: entries, dropping: dropped, keptCounts: counts, stopHashCap: cap)
    try checkFrameAxis(end: next, postingCount: edit.pairs.postingCount)
    return edit
  }

  /// The postings of each hash of `index` that `cut` keeps: one pass over them, reported as `readingIndex`.
  private func keptPostingCounts(of index: CatalogIndex, cut: AxisCut) -> [UInt32] {
    var counts = [UInt32](repeating: 0, count: 1 << index.hashBits)
    let total = Double(max(1, index.postings.count))
    var done = 0
    counts.withUnsafeMutableBufferPointer { c in
      index.forEachEntry { hash, position in
        if cut.moved(position) != nil { c[Int(hash)] &+= 1 }
        done += 1
        if done & Self.progressPostingsMask == 0 { progress?(.readingIndex, Double(done) / total) }
      }
    }
    progress?(.readingIndex, 1)
    return counts
  }

  /// Throws when the frame axis, ending at `end`, does not fit the index's position bits.
  private func checkFrameAxis(end: UInt32, postingCount: Int) throws(FormatError) {
    let hashBits = HashLayout(parameters).totalBits
    let positionBits = 32 - (hashBits - CatalogIndex.directoryBits(hashBits: hashBits, postingCount: postingCount))
    guard positionBits >= 32 || UInt64(end) < (UInt64(1) << UInt64(positionBits)) else {
      throw tooLarge(positionBits: positionBits, axisFrames: UInt64(end))
    }
  }

  /// A catalog whose frame axis would need `axisFrames` frames, more than `positionBits` bits of position address.
  private func tooLarge(positionBits: Int, axisFrames: UInt64) -> FormatError {
    let framesPerHour = Double(parameters.sampleRateHz) / Double(parameters.hopSizeSamples) * 3600
    let limit = (UInt64(1) << UInt64(positionBits)) - 1
    return FormatError(
      path: "catalog",
      reason: "too large: \(tracks.count) tracks exceed the index's \(positionBits)-bit frame axis (they need "
        + "\(axisFrames) frames, \(Int(Double(axisFrames) / framesPerHour)) hours with the gaps between tracks; it "
        + "holds \(limit), \(Int(Double(limit) / framesPerHour)) hours): split the tracks into two catalogs")
  }

  private func tooManyPostings(_ count: Int) -> FormatError {
    FormatError(
      path: "catalog",
      reason: "too large: \(tracks.count) tracks have \(count) hashes, more than the index's 32-bit offsets address "
        + "(\(UInt32.max))")
  }

  /// Drops the hashes that occur far more often than the average (sustained notes, common intervals): like stop
  /// words, they match everywhere and tell nothing, and they would cost most of the lookup time.
  /// A hash is dropped when it has more than `stopHashCap` postings; returns the cap used.
  static func removingStopHashes(
    _ entries: [(hash: UInt32, position: UInt32)], hashBits: Int, minimumCap: Int = 0
  ) -> (entries: [(hash: UInt32, position: UInt32)], cap: Int) {
    var counts = [UInt32](repeating: 0, count: 1 << hashBits)
    for e in entries { counts[Int(e.hash)] &+= 1 }
    let cap = counts.withUnsafeBufferPointer { stopHashCap(counts: $0, minimumCap: minimumCap) }
    return (entries.filter { counts[Int($0.hash)] <= UInt32(cap) }, cap)
  }

  /// The share of a catalog's postings that the stop-hash rule keeps at least, as long as the cap stays under
  /// `maxStopHashCapPerMean`. Only some 170,000–195,000 distinct hashes occur, so their mean follows the catalog's
  /// size, but how many postings lie above 4 times it depends on the music: that rule alone keeps 80 % of the dev
  /// catalog's postings, 72 % of the 1,000 h scale catalog's, and 53 % of the 100 h one's, whose `radio` plays were
  /// found 4.7–6.3 s after they began (median, seeds 1–5) against 4.0–4.5 s at 1,000 h. Keeping 70 % there (a cap of
  /// 417 postings instead of 267) found them 0.7–1.5 s sooner, and `hard` s1's 2.4 s sooner, for 17 % more
  /// instructions and an index of 0.65 MB/h instead of 0.49; the dev, 1,000 h and 10,000 h catalogs keep more than
  /// 70 % anyway, so their caps do not change (docs/benchmarks.md). Fraction of the postings.
  static let minKeptPostingShare = 0.70

  /// The share rule (`minKeptPostingShare`) never raises the cap past this many times the mean postings of a distinct
  /// hash: a catalog whose postings crowd into a few hashes (one short loop, a test's repeated pattern) still loses
  /// those. 100 h needs 6.2 times; 8 times cost 31 % more instructions there. Times the mean.
  static let maxStopHashCapPerMean = 8

  /// The most postings a hash may keep: at least 12 and `minimumCap`, and at least 4 times the mean postings of a
  /// distinct hash; above that, up to `maxStopHashCapPerMean` times the mean, the smallest count under which the
  /// hashes hold `minKeptPostingShare` of the postings.
  /// - Parameter counts: the postings of each hash (zero for a hash that does not occur).
  static func stopHashCap(counts: UnsafeBufferPointer<UInt32>, minimumCap: Int) -> Int {
    var occurring: [UInt32] = []
    var total = 0
    for c in counts where c > 0 {
      occurring.append(c)
      total += Int(c)
    }
    guard !occurring.isEmpty else { return minimumCap }
    occurring.sort()
    var kept = 0
    var shareCap = 0
    for c in occurring {
      kept += Int(c)
      shareCap = Int(c)
      if Double(kept) >= minKeptPostingShare * Double(total) { break }
    }
    let distinct = occurring.count
    return max(12, 4 * total / distinct, min(shareCap, maxStopHashCapPerMean * total / distinct), minimumCap)
  }
}
