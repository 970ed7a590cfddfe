import Common
import Foundation
import Matcher
import Reports

/// `catalog add --from-unknown CLUSTER --title … --artist … --db PLAYLOG --catalog FILE`: names a cluster of unknown
/// music. Its best clip (the longest clip still on disk, then the most surely music) becomes the item's reference,
/// added to the catalog as `catalog add` adds a file (a cluster promoted before keeps the item it was given); then
/// each airing of the cluster is written to the play log once, as a play with status `late` and the time it was
/// identified, so that reports count it.
///
/// A segment's play keeps the segment's start and end; its offset into the reference is the segment's offset in the
/// cluster less that of the reference clip's start (negative when the airing began before the part the clip holds;
/// a clip lacks its segment's start when the segment was longer than the audio a channel keeps), its speed 1
/// (the cluster does not keep one), its confidence the classifier's that it is music, and its detection time the
/// segment's end (when the monitor logged it as unknown).
extension CatalogCommand {
  /// EX_NOINPUT: none of the cluster's clips is on disk, so there is no audio to build the reference from.
  static let noClipStatus: Int32 = 66
  /// EX_CANTCREAT: the catalog cannot be written where it is.
  static let unwritableCatalogStatus: Int32 = 73
  /// The catalog holds the cluster's recording under another item already: nothing is promoted.
  static let recordingPresentStatus: Int32 = 1
  /// The share of a promoted clip (or of its part) that a play of a catalog item must fill for the catalog to hold
  /// the cluster's recording already.
  static let minClipShareMatched = 0.5

  /// `--from-unknown` was given: promotes the cluster.
  static func addFromUnknown(_ a: CommandLineArguments, clusterText: String) throws -> Int32 {
    guard let cluster = Int64(clusterText), cluster > 0 else {
      throw UsageError(
        "--from-unknown \(clusterText): not a cluster number; `report unknown --db PLAYLOG` lists them in its first "
          + "column")
    }
    guard a.positionals.isEmpty, a.value("metadata") == nil, a.value("jobs") == nil else {
      throw UsageError(
        "--from-unknown adds one recording from its clip: give no PATH, --metadata or --jobs with it (add files in "
          + "a separate `catalog add`)")
    }
    let catalogURL = URL(fileURLWithPath: try a.required("catalog"))
    let lock = try CatalogEditLock.take(catalogURL, command: "catalog add")
    defer { lock.release() }
    let metadata = try promotedMetadata(a)
    let playLog = try a.required("db")

    let store = try PlayLogLocation.openExisting(playLog, command: "catalog-add", passwordFile: nil)
    defer { try? store.close() }
    let segments = try store.unknownSegments(cluster: cluster)
    guard !segments.isEmpty else {
      throw UsageError(
        "--from-unknown \(cluster): the play log \(playLog) has no cluster \(cluster) of unknown music; "
          + "`report unknown --db \(playLog)` lists its clusters")
    }
    // Checked before any audio is decoded: a catalog that cannot be written would waste the work.
    let folder = catalogURL.deletingLastPathComponent().path
    guard access(folder, W_OK) == 0 else {
      printError(
        "broadcast-monitor: catalog add: cannot write the catalog \(catalogURL.path): its folder \(folder) is not "
          + "writable (\(String(cString: strerror(errno)))); let this user write there, or give another --catalog")
      return unwritableCatalogStatus
    }
    let existing = FileManager.default.fileExists(atPath: catalogURL.path) ? try Catalog.load(from: catalogURL) : nil
    let builder = existing.map(CatalogBuilder.init(editing:)) ?? CatalogBuilder()
    // A cluster promoted before keeps its item: a later airing is logged on it, even when its clip is gone since.
    guard
      let reference = earlierReference(of: segments, in: existing)
        ?? bestReference(of: segments, cluster: cluster, parameters: builder.parameters)
    else {
      printError("broadcast-monitor: catalog add: " + noClipMessage(segments, cluster: cluster))
      return noClipStatus
    }

    // The same steps as a file's `catalog add`: a clip already added only has its metadata brought up to date.
    let present = builder.contains(key: reference.key)
    if !present, let existing, let play = try playOfCatalog(existing, in: reference) {
      // The catalog holds the recording under another item (added since the airings were logged as unknown): a
      // second item would split its plays between the two. The monitor's own matcher decides, on the clip as aired;
      // comparing the two references' pairs, as for a file, misses a clip of processed air.
      let m = play.track.metadata
      let line = String(
        format: "cluster %lld's clip %@ plays item %@, \"%@\"%@ (%@) from %.1f to %.1f s of the clip, %d matches",
        cluster, reference.segment.clipPath ?? "", play.track.key, m.title, m.artist.isEmpty ? "" : " by " + m.artist,
        play.track.sourcePath, play.startSeconds, play.endSeconds, play.matchCount)
      guard a.has("allow-duplicates") else {
        printError(
          DisplayWidth.printable(
            "broadcast-monitor: catalog add: \(line): the catalog holds this recording already; nothing was "
              + "written. A rescan of the broadcast logs its airings under that item; --allow-duplicates adds "
              + "the cluster as a new item anyway"))
        return recordingPresentStatus
      }
      printError(
        DisplayWidth.printable(
          "warning: \(line); added anyway (--allow-duplicates): each airing is logged under whichever is matched first")
      )
    }
    if present {
      builder.updateMetadata(key: reference.key, metadata: metadata)
    } else if let signature = reference.signature {
      builder.add(
        signature: signature, key: reference.key, sourcePath: reference.segment.clipPath ?? "", metadata: metadata)
    }
    try writing("catalog add", to: catalogURL) { try builder.write(to: catalogURL, progress: $0) }
    print(
      DisplayWidth.printable(
        "catalog \(catalogURL.path): \(present ? "already present" : "added") \(reference.key) "
          + "\(metadata.artist) – \(metadata.title), from cluster \(cluster)'s clip \(reference.segment.clipPath ?? "")"
          + String(format: " (%.1f s); now %d tracks", reference.durationSeconds, builder.trackCount)))

    let plays = segments.filter { $0.playID == nil }.map {
      LatePlay(
        segmentID: $0.id,
        play: latePlay(
          of: $0, reference: reference, key: reference.key, metadata: metadata,
          durationSeconds: reference.durationSeconds))
    }
    let written = try store.recordLatePlays(plays, identifiedAt: Date())
    print(
      "play log \(playLog): \(written.count) late plays of cluster \(cluster)"
        + (segments.count > written.count ? " (\(segments.count - written.count) airings were promoted before)" : ""))
    return 0
  }

  /// The item's metadata from `--title`, `--artist`, `--isrc` and `--kind`.
  static func promotedMetadata(_ a: CommandLineArguments) throws -> TrackMetadata {
    let title = try a.required("title").trimmingCharacters(in: .whitespaces)
    let artist = try a.required("artist").trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { throw UsageError("--title is empty: give the recording's title") }
    var isrc = ""
    if let text = a.value("isrc"), !text.isEmpty {
      guard let code = ISRC.normalized(text) else {
        throw UsageError("--isrc \(text): not an ISRC, 12 letters and digits such as USRC17607839 (hyphens allowed)")
      }
      isrc = code
    }
    let kindText = a.value("kind") ?? ""
    guard let kind = ItemKind(lenient: kindText) else {
      throw UsageError(
        "--kind \(kindText): not a kind; write one of "
          + ItemKind.acceptedWords.map { "`\($0)`" }.joined(separator: ", "))
    }
    return TrackMetadata(title: title, artist: artist, isrc: isrc, kind: kind)
  }

  /// The reference of the cluster's item: the segment whose clip it was built from, the item's key and length, and
  /// the clip's signature (nil when the catalog has the item already).
  struct PromotedReference {
    var segment: UnknownSegment
    var key: String
    var durationSeconds: Double
    var signature: Signature?
    /// The part of the clip the reference was made from (seconds from its start); nil for the whole clip.
    var clipPart: (from: Double, to: Double)? = nil
  }

  /// The item an earlier promotion of the cluster added, when the catalog still has it and the segment of the clip
  /// it was built from is in the cluster.
  static func earlierReference(of segments: [UnknownSegment], in catalog: Catalog?) -> PromotedReference? {
    guard let catalog, let key = segments.lazy.compactMap(\.promotedItemKey).first,
      let track = catalog.tracks.first(where: { $0.key == key }),
      let source = segments.first(where: { $0.clipPath == track.sourcePath })
    else { return nil }
    return PromotedReference(segment: source, key: key, durationSeconds: track.durationSeconds, signature: nil)
  }

  /// The clips on disk, longest first (by the clip's own length: a clip may hold less than its segment), then the
  /// most surely music, then the earliest; the first that decodes gives the reference (one that does not is said on
  /// stderr, and the next is tried). Nil when none is left.
  static func bestReference(
    of segments: [UnknownSegment], cluster: Int64, parameters: FingerprintParameters
  ) -> PromotedReference? {
    let decoder = AudioFileDecoder(ffmpegSampleRate: parameters.sampleRateHz)
    let candidates = segments.compactMap { segment -> (segment: UnknownSegment, seconds: Double)? in
      guard let path = segment.clipPath, isRegularFile(path) else { return nil }
      // A clip may hold more than its segment too: a segment cut in two by a cluster split shares its clip.
      return (segment, min(decoder.probeDurationSeconds(path: path) ?? .infinity, segment.durationSeconds))
    }.sorted {
      ($0.seconds, $0.segment.musicConfidence, -$0.segment.start.timeIntervalSince1970)
        > ($1.seconds, $1.segment.musicConfidence, -$1.segment.start.timeIntervalSince1970)
    }.map(\.segment)
    let gone = segments.compactMap(\.clipPath).filter { !isRegularFile($0) }
    if !gone.isEmpty && !candidates.isEmpty {
      printError(
        "catalog add: \(gone.count) of cluster \(cluster)'s clips are gone (the retention deletes the oldest): "
          + gone.joined(separator: ", "))
    }
    let fingerprinter = ReferenceFingerprinter(parameters: parameters)
    for segment in candidates {
      guard let path = segment.clipPath else { continue }
      do {
        var signature = try fingerprinter.signature(ofFileAt: path)
        var key = try ReferenceFingerprinter.key(ofFileAt: path)
        let part = segmentPart(of: segment, clipSeconds: signature.durationSeconds)
        if let part {
          signature = UnknownClusters.excerpt(signature, fromSeconds: part.from, toSeconds: part.to)
          key += String(format: "@%.0f-%.0f", part.from * 1000, part.to * 1000)
        }
        return PromotedReference(
          segment: segment, key: key, durationSeconds: signature.durationSeconds, signature: signature,
          clipPart: part)
      } catch {
        printError("catalog add: skipped cluster \(cluster)'s clip \(path): \(error)")
      }
    }
    return nil
  }

  /// The play of an item of `catalog` that fills at least half of the part of its clip the reference was made from,
  /// when the catalog matches it there (the longest when there are several). Half: the air a clip keeps around its
  /// segment may hold the tail of a catalog song, which is not the cluster's recording.
  static func playOfCatalog(_ catalog: Catalog, in reference: PromotedReference) throws -> MatchedPlay? {
    guard let path = reference.segment.clipPath else { return nil }
    let collector = PlayCollector()
    let matcher = StreamMatcher(catalog: catalog, settings: MatcherSettings(), sink: collector)
    try AudioFileDecoder(ffmpegSampleRate: catalog.parameters.sampleRateHz).decode(path: path) {
      samples, channels, rate in
      try matcher.append(samples, channels: channels, sampleRate: rate)
    }
    matcher.flush()
    let part = reference.clipPart ?? (from: 0, to: .infinity)
    let partSeconds = min(part.to, reference.durationSeconds + part.from) - part.from
    return collector.ended.filter {
      min($0.endSeconds, part.to) - max($0.startSeconds, part.from) >= minClipShareMatched * partSeconds
    }.max { $0.durationSeconds < $1.durationSeconds }
  }

  /// The part of its clip (seconds from the clip's start) that `segment` aired, when the clip holds more than
  /// `clipLeadToleranceSeconds` of air on either side of it (a segment cut in two by a cluster split keeps the clip
  /// of the whole, and its span); nil when the clip is the segment's own. The reference is built from that part
  /// alone, under a key of its own, so that the two parts of one clip can become two items.
  static func segmentPart(of segment: UnknownSegment, clipSeconds: Double) -> (from: Double, to: Double)? {
    guard let clipStart = segment.clipStart else { return nil }
    let from = max(0, segment.start.timeIntervalSince(clipStart))
    let to = min(clipSeconds, segment.end.timeIntervalSince(clipStart))
    guard from > clipLeadToleranceSeconds || to < clipSeconds - clipLeadToleranceSeconds, to > from else { return nil }
    return (from, to)
  }

  /// Why there is no clip to build cluster `cluster`'s reference from, and what to do.
  static func noClipMessage(_ segments: [UnknownSegment], cluster: Int64) -> String {
    let kept = segments.compactMap(\.clipPath)
    let without = segments.count - kept.count
    var reasons: [String] = []
    if !kept.isEmpty {
      reasons.append(
        "\(kept.count == 1 ? "its clip is" : "its \(kept.count) clips are") gone or unreadable ("
          + kept.joined(separator: ", ") + "; the retention deletes the oldest: unknown.retentionDays, "
          + "unknown.retentionGigabytes)")
    }
    if without > 0 {
      reasons.append(
        "\(without) of its airings \(without == 1 ? "was" : "were") logged without a clip (clips are kept with "
          + "unknown.clipsDirectory in the configuration, or scan --clips DIR)")
    }
    if kept.contains(where: { !$0.hasPrefix("/") }) {
      reasons.append(
        "relative clip paths are read from the current folder \(FileManager.default.currentDirectoryPath): run "
          + "this from the folder the monitor ran in")
    }
    return "cluster \(cluster) has no clip to build the reference from: " + reasons.joined(separator: "; ")
      + ". Add the recording from its own audio file (`catalog add --catalog FILE song.wav`), or keep clips and run "
      + "this again once it has aired again"
  }

  /// The `late` play that `segment` becomes, on the item `key` made from `reference`'s clip.
  static func latePlay(
    of segment: UnknownSegment, reference: PromotedReference, key: String, metadata: TrackMetadata,
    durationSeconds: Double
  ) -> PlayRecord {
    PlayRecord(
      channel: segment.channel, itemKey: key, metadata: metadata, itemDurationSeconds: durationSeconds,
      start: segment.start, end: segment.end,
      refOffsetSeconds: segment.clusterOffsetSeconds - reference.segment.clusterOffsetSeconds
        - clipLeadSeconds(reference), speed: 1,
      confidence: segment.musicConfidence, detectedAt: segment.end, status: .late)
  }

  /// How far into its segment the reference clip starts: 0 for a clip of the whole segment. The play log has the
  /// clip's start (`clip_start_ms`); a clip written before it did ends where its segment ends, so a clip more than
  /// `clipLeadToleranceSeconds` shorter than its segment lacks the segment's start.
  static func clipLeadSeconds(_ reference: PromotedReference) -> Double {
    if let clipStart = reference.segment.clipStart {
      return max(0, clipStart.timeIntervalSince(reference.segment.start))
    }
    let lacking = reference.segment.durationSeconds - reference.durationSeconds
    return lacking > clipLeadToleranceSeconds ? lacking : 0
  }

  /// A clip's decoded length differs from its segment's by a few fingerprint frames (tens of milliseconds) when it
  /// holds the whole segment; a clip that lacks the segment's start lacks tens of seconds or more.
  static let clipLeadToleranceSeconds = 1.0
}
