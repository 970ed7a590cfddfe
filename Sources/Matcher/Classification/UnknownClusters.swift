import Common
import Foundation

/// Groups unknown segments by recording: each new segment's fingerprint is matched against every earlier one (any
/// channel, any day, ±6 % speed: the stream matcher's own search, over an in-memory catalog of the segments); one
/// that matches joins the earlier segment's cluster at its offset, any other starts a cluster. The play log keeps
/// each segment's fingerprint, cluster and offset, and `restore` rebuilds the index from them at start.
///
/// A segment in which two clusters match one after the other (two recordings aired back to back, each heard before,
/// with no talk between them) is cut between the two, and each part joins its own cluster (`assignParts`).
///
/// Two recordings aired back to back the first time either is heard make one segment, and one cluster. A later
/// segment that starts or ends at a point of the cluster where another of its airings starts or ends too, while an
/// earlier segment runs through that point (`ClassifierTuning.minSplitHeadSeconds` on each side), shows that a
/// recording starts there: the cluster is split at that point, retroactively. Every earlier segment of the cluster
/// that spans it is cut in two, the part before keeps the cluster, the part after (and every segment wholly after
/// it) goes to a new cluster, and the later segment joins its side (`assignParts(_:origin:)`, whose revisions the
/// play log applies). A cluster promoted to the catalog is never split.
///
/// The search holds a few airings of each stretch of a cluster's recording (`ClassifierTuning
/// .searchedAiringsPerStretch`): a later airing of a stretch that many searched airings cover is placed, kept (its
/// reference, for a split) and logged like any other, but not searched, so that the music a station repeats for
/// months costs neither search time nor index memory for each repeat.
///
/// Threads: any; one lock serialises `assign` and `restore` (channels close unknown segments a few times an hour).
public final class UnknownClusters: @unchecked Sendable {
  /// Where a segment belongs.
  public struct Assignment: Sendable, Equatable {
    public var cluster: Int64
    /// Where the segment starts in the cluster's first airing, in seconds.
    public var offsetSeconds: Double
    /// True when the segment joined an earlier cluster.
    public var joined: Bool
    /// The segment's reference signature (its strongest peaks), as the index keeps it: the play log stores it.
    public var reference: Signature
  }

  /// An indexed segment: its cluster and offset, its reference, where it aired (nil when not known: it is then
  /// split in memory only), and whether the search holds it (`catalog`).
  struct Indexed {
    var cluster: Int64
    var offsetSeconds: Double
    var reference: Signature
    var origin: UnknownSegmentOrigin?
    var searched: Bool
  }

  /// An earlier segment changed by a split: its new cluster, offset and reference, and, when it was cut in two, the
  /// part from `tail.startSeconds` (seconds into the segment) to its end.
  public struct Revision: Sendable, Equatable {
    public struct Tail: Sendable, Equatable {
      public var startSeconds: Double
      public var cluster: Int64
      public var offsetSeconds: Double
      public var reference: Signature
    }
    public var origin: UnknownSegmentOrigin
    public var cluster: Int64
    public var offsetSeconds: Double
    public var reference: Signature
    public var tail: Tail?
  }

  /// A segment from the play log, as `restore` takes it.
  public struct Restored: Sendable {
    public var reference: Signature
    public var cluster: Int64
    public var offsetSeconds: Double
    public var origin: UnknownSegmentOrigin?
    /// Its cluster has become a catalog item: never split.
    public var promoted: Bool

    public init(
      reference: Signature, cluster: Int64, offsetSeconds: Double, origin: UnknownSegmentOrigin?, promoted: Bool
    ) {
      self.reference = reference
      self.cluster = cluster
      self.offsetSeconds = offsetSeconds
      self.origin = origin
      self.promoted = promoted
    }
  }

  public let parameters: FingerprintParameters
  private let lock = NSLock()
  /// The searched segments, as a catalog whose keys are those of `indexed`.
  private var catalog: Catalog?
  /// Each indexed segment, searched or not, by its key.
  private var indexed: [String: Indexed] = [:]
  /// The span of each searched segment of a cluster, in the cluster's first airing's seconds: what `needsSearch`
  /// counts.
  private var searchedSpans: [Int64: [(start: Double, end: Double)]] = [:]
  /// `ClassifierTuning.searchedAiringsPerStretch` but in tests.
  private let searchedPerStretch: Int
  /// Clusters promoted to the catalog (from the play log at restore): never split.
  private var promoted: Set<Int64> = []
  private var nextCluster: Int64 = 1
  private var nextKey = 1

  public init(parameters: FingerprintParameters) {
    self.parameters = parameters
    searchedPerStretch = ClassifierTuning.searchedAiringsPerStretch
  }

  /// - Parameter searchedAiringsPerStretch: the airings of each stretch the search holds
  ///   (`ClassifierTuning.searchedAiringsPerStretch`; `.max`: every airing).
  package init(parameters: FingerprintParameters, searchedAiringsPerStretch: Int) {
    self.parameters = parameters
    searchedPerStretch = searchedAiringsPerStretch
  }

  /// Segments in the index.
  public var segmentCount: Int { lock.withLock { indexed.count } }

  /// Segments the search holds.
  package var searchedCount: Int { lock.withLock { indexed.values.count { $0.searched } } }

  /// The cluster of each indexed segment whose origin is known, by its origin.
  public var clustersByOrigin: [UnknownSegmentOrigin: Int64] {
    lock.withLock {
      Dictionary(indexed.values.compactMap { e in e.origin.map { ($0, e.cluster) } }, uniquingKeysWith: { a, _ in a })
    }
  }

  /// Adds segments from the play log (their reference signatures, clusters and offsets), without matching them.
  public func restore(_ segments: [(reference: Signature, cluster: Int64, offsetSeconds: Double)]) throws {
    try restore(
      segments.map {
        Restored(
          reference: $0.reference, cluster: $0.cluster, offsetSeconds: $0.offsetSeconds, origin: nil, promoted: false)
      })
  }

  /// Adds segments from the play log, without matching them; a promoted one's cluster is never split.
  public func restore(_ segments: [Restored]) throws {
    try lock.withLock {
      let builder = catalog.map(CatalogBuilder.init(editing:)) ?? CatalogBuilder(parameters: parameters)
      var added = false
      for s in segments where s.reference.parameters == parameters {
        let key = "unknown-\(nextKey)"
        nextKey += 1
        let searched = needsSearch(
          cluster: s.cluster, fromSeconds: s.offsetSeconds, durationSeconds: s.reference.durationSeconds)
        if searched {
          builder.add(signature: s.reference, key: key, sourcePath: "", metadata: TrackMetadata(title: key))
          searchedSpans[s.cluster, default: []].append(
            (s.offsetSeconds, s.offsetSeconds + s.reference.durationSeconds))
          added = true
        }
        indexed[key] = Indexed(
          cluster: s.cluster, offsetSeconds: s.offsetSeconds, reference: s.reference, origin: s.origin,
          searched: searched)
        if s.promoted { promoted.insert(s.cluster) }
        nextCluster = max(nextCluster, s.cluster + 1)
      }
      if added { catalog = try builder.build() }
    }
  }

  /// One part of a segment and where it belongs.
  public struct Part: Sendable, Equatable {
    /// Where the part lies in the segment, in seconds from its start.
    public var startSeconds: Double
    public var endSeconds: Double
    public var assignment: Assignment
  }

  /// Finds the cluster of a segment from its query signature (the matcher's peaks over the segment) and adds the
  /// segment to the index.
  public func assign(_ query: Signature) -> Assignment {
    lock.withLock {
      let match = catalog.flatMap { catalog in
        Self.longest(matches(of: query, in: catalog))
      }
      return place(query, match: match, partStartSeconds: 0, origin: nil)
    }
  }

  /// The cluster of the earlier segment that `query` matches longest, nil when none does; the index is unchanged
  /// (for unknown music still on air).
  public func identify(_ query: Signature) -> Int64? {
    lock.withLock {
      guard let catalog, let match = Self.longest(matches(of: query, in: catalog)) else { return nil }
      return indexed[match.track.key]?.cluster
    }
  }

  /// Finds where a segment belongs, part by part: when the earlier segments of two or more clusters match it one
  /// after the other, it is cut halfway between their matches (each part at least
  /// `ClassifierTuning.minUnknownSeconds` long), and each part joins its cluster and enters the index as a segment
  /// of its own. Otherwise the segment is one part, placed as `assign` places it. The parts cover the segment, in
  /// order.
  public func assignParts(_ query: Signature) -> [Part] {
    assignParts(query, origin: { _ in nil }).parts
  }

  /// As `assignParts(_:)`, first splitting the cluster that `query`'s start or end shows to hold two recordings (see
  /// the type's notes): returns the parts and the earlier segments the split changed, for the play log.
  /// `origin` gives where a part starting that many seconds into the segment aired.
  public func assignParts(
    _ query: Signature, origin: (Double) -> UnknownSegmentOrigin?
  ) -> (parts: [Part], revisions: [Revision]) {
    lock.withLock {
      var found = catalog.map { matches(of: query, in: $0) } ?? []
      var revisions: [Revision] = []
      if let cut = splitPoint(found, duration: query.durationSeconds) {
        revisions = split(cluster: cut.cluster, atOffsetSeconds: cut.offsetSeconds)
        found = catalog.map { matches(of: query, in: $0) } ?? []
      }
      let runs = Self.runs(found) { indexed[$0]?.cluster }
      let total = query.durationSeconds
      guard runs.count > 1 else {
        let assignment = place(query, match: Self.longest(found), partStartSeconds: 0, origin: origin(0))
        return ([Part(startSeconds: 0, endSeconds: total, assignment: assignment)], revisions)
      }
      var parts: [Part] = []
      for (i, run) in runs.enumerated() {
        let start = i == 0 ? 0 : (runs[i - 1].endSeconds + run.startSeconds) / 2
        let end = i == runs.count - 1 ? total : (run.endSeconds + runs[i + 1].startSeconds) / 2
        let part = Self.excerpt(query, fromSeconds: start, toSeconds: end)
        parts.append(
          Part(
            startSeconds: start, endSeconds: end,
            assignment: place(part, match: run.play, partStartSeconds: start, origin: origin(start))))
      }
      return (parts, revisions)
    }
  }

  /// Where `found` shows an earlier segment's cluster to hold two recordings: the strongest match puts an edge of
  /// the new segment (its start or end; the match's, when the segment runs on past the match by more than
  /// `ClassifierTuning.splitStartToleranceSeconds`) at a point of the cluster where another of its segments starts or
  /// ends too (within that tolerance), and an earlier segment of the cluster runs through that point, with at least
  /// `ClassifierTuning.minSplitHeadSeconds` on each side: two airings began or ended where that segment went on. An
  /// airing joined mid-song or cut short starts or ends anywhere; a recording starts and ends where it does. The
  /// cluster (not promoted) and the point. Inside the lock.
  private func splitPoint(_ found: [MatchedPlay], duration: Double) -> (cluster: Int64, offsetSeconds: Double)? {
    guard let play = Self.longest(found), let earlier = indexed[play.track.key], !promoted.contains(earlier.cluster)
    else { return nil }
    let tolerance = ClassifierTuning.splitStartToleranceSeconds
    let matchStart = earlier.offsetSeconds + play.referenceOffsetSeconds
    let matchEnd = matchStart + play.speed * play.durationSeconds
    let before = play.startSeconds
    let after = duration - play.endSeconds
    let edges = [
      before <= tolerance ? matchStart - play.speed * before : matchStart,
      after <= tolerance ? matchEnd + play.speed * after : matchEnd,
    ]
    let members = indexed.values.filter { $0.cluster == earlier.cluster }
    let minSide = ClassifierTuning.minSplitHeadSeconds
    for edge in edges {
      let shared = members.contains {
        abs($0.offsetSeconds - edge) <= tolerance
          || abs($0.offsetSeconds + $0.reference.durationSeconds - edge) <= tolerance
      }
      let spanned = members.contains {
        edge - $0.offsetSeconds >= minSide && $0.offsetSeconds + $0.reference.durationSeconds - edge >= minSide
      }
      if shared && spanned { return (earlier.cluster, edge) }
    }
    return nil
  }

  /// Splits `cluster` at `atOffsetSeconds` (in its first airing's time): each of its segments that spans that point
  /// by at least `ClassifierTuning.minUnknownSeconds` on each side is cut there; the part before stays, the part
  /// after and every segment that lies (all but its first 20 s) after the point go to a new cluster, starting at
  /// the cut. Rebuilds the index. Inside the lock.
  private func split(cluster: Int64, atOffsetSeconds cut: Double) -> [Revision] {
    let tailCluster = nextCluster
    nextCluster += 1
    var revisions: [Revision] = []
    for key in indexed.keys.sorted() {
      guard var entry = indexed[key], entry.cluster == cluster else { continue }
      let local = cut - entry.offsetSeconds
      let duration = entry.reference.durationSeconds
      if local >= duration - ClassifierTuning.minUnknownSeconds { continue }
      if local <= ClassifierTuning.minUnknownSeconds {
        entry.cluster = tailCluster
        entry.offsetSeconds -= cut
        indexed[key] = entry
        if let origin = entry.origin {
          revisions.append(
            Revision(
              origin: origin, cluster: tailCluster, offsetSeconds: entry.offsetSeconds, reference: entry.reference))
        }
        continue
      }
      let whole = entry.reference
      entry.reference = Self.excerpt(whole, fromSeconds: 0, toSeconds: local)
      indexed[key] = entry
      let tail = Indexed(
        cluster: tailCluster, offsetSeconds: 0,
        reference: Self.excerpt(whole, fromSeconds: local, toSeconds: duration),
        origin: entry.origin?.advanced(bySeconds: local), searched: entry.searched)
      let tailKey = "unknown-\(nextKey)"
      nextKey += 1
      indexed[tailKey] = tail
      if let origin = entry.origin {
        revisions.append(
          Revision(
            origin: origin, cluster: cluster, offsetSeconds: entry.offsetSeconds, reference: entry.reference,
            tail: Revision.Tail(
              startSeconds: local, cluster: tailCluster, offsetSeconds: 0, reference: tail.reference)))
      }
    }
    let builder = CatalogBuilder(parameters: parameters)
    searchedSpans = [:]
    for (key, entry) in indexed.sorted(by: { $0.key < $1.key }) where entry.searched {
      builder.add(signature: entry.reference, key: key, sourcePath: "", metadata: TrackMetadata(title: key))
      searchedSpans[entry.cluster, default: []].append(
        (entry.offsetSeconds, entry.offsetSeconds + entry.reference.durationSeconds))
    }
    catalog = try? builder.build()
    return revisions
  }

  /// Places `query` in the cluster of `match` (a play of the earlier segments' catalog over the whole segment, whose
  /// part `query` is, from `partStartSeconds`), or in a new cluster without one; then indexes it. Inside the lock.
  private func place(
    _ query: Signature, match: MatchedPlay?, partStartSeconds: Double, origin: UnknownSegmentOrigin?
  ) -> Assignment {
    let reference = Self.thinned(query, perBlock: parameters.referencePeaksPerBlock)
    var assignment = Assignment(cluster: nextCluster, offsetSeconds: 0, joined: false, reference: reference)
    if let match, let place = indexed[match.track.key] {
      // The part's start lies this far into the earlier segment's reference.
      let start = match.referenceOffsetSeconds - match.speed * (match.startSeconds - partStartSeconds)
      assignment.cluster = place.cluster
      assignment.offsetSeconds = place.offsetSeconds + start
      assignment.joined = true
    } else {
      nextCluster += 1
    }
    let key = "unknown-\(nextKey)"
    nextKey += 1
    let start = assignment.offsetSeconds
    let searched = needsSearch(
      cluster: assignment.cluster, fromSeconds: start, durationSeconds: reference.durationSeconds)
    if searched {
      let builder = catalog.map(CatalogBuilder.init(editing:)) ?? CatalogBuilder(parameters: parameters)
      builder.add(signature: reference, key: key, sourcePath: "", metadata: TrackMetadata(title: key))
      // A catalog that cannot grow (its frame axis full) leaves the segment out of the index.
      guard let built = try? builder.build() else { return assignment }
      catalog = built
      searchedSpans[assignment.cluster, default: []].append((start, start + reference.durationSeconds))
    }
    indexed[key] = Indexed(
      cluster: assignment.cluster, offsetSeconds: start, reference: reference, origin: origin, searched: searched)
    return assignment
  }

  /// Whether a segment of `cluster` from `fromSeconds` (in the cluster's first airing's time) is to be searched:
  /// whether fewer than `searchedPerStretch` searched segments of the cluster cover a stretch of it at least
  /// `ClassifierTuning.clusterMinMatchSeconds` long. Inside the lock.
  private func needsSearch(cluster: Int64, fromSeconds from: Double, durationSeconds: Double) -> Bool {
    let spans = searchedSpans[cluster] ?? []
    guard spans.count >= searchedPerStretch else { return true }
    let to = from + durationSeconds
    var edges = [from, to]
    for span in spans {
      if span.start > from && span.start < to { edges.append(span.start) }
      if span.end > from && span.end < to { edges.append(span.end) }
    }
    edges.sort()
    var thinSeconds = 0.0
    for (a, b) in zip(edges, edges.dropFirst()) where b > a {
      let middle = (a + b) / 2
      if spans.count(where: { $0.start <= middle && middle < $0.end }) < searchedPerStretch {
        thinSeconds += b - a
        if thinSeconds >= ClassifierTuning.clusterMinMatchSeconds { return true }
      } else {
        thinSeconds = 0
      }
    }
    return false
  }

  /// The plays the stream matcher finds of `query` in `catalog` at least `ClassifierTuning.clusterMinMatchSeconds`
  /// long.
  private func matches(of query: Signature, in catalog: Catalog) -> [MatchedPlay] {
    let collector = EndedPlays()
    let matcher = StreamMatcher(catalog: catalog, sink: collector)
    try? matcher.match(query)
    return collector.plays.filter { $0.durationSeconds >= ClassifierTuning.clusterMinMatchSeconds }
  }

  private static func longest(_ plays: [MatchedPlay]) -> MatchedPlay? {
    plays.max { ($0.matchCount, $0.durationSeconds) < ($1.matchCount, $1.durationSeconds) }
  }

  /// A stretch of the segment that one cluster matches: its span in the segment and its strongest play.
  struct Run {
    var cluster: Int64
    var startSeconds: Double
    var endSeconds: Double
    var play: MatchedPlay
  }

  /// The clusters that match the segment one after the other: the strongest plays that do not overlap much (a
  /// crossfade) in the segment, in time order, neighbours of one cluster joined; then, while a part cut between two
  /// runs would be shorter than `ClassifierTuning.minUnknownSeconds`, the weaker of its runs is left out.
  static func runs(_ plays: [MatchedPlay], cluster clusterOf: (String) -> Int64?) -> [Run] {
    var kept: [MatchedPlay] = []
    for play in plays.sorted(by: { ($0.matchCount, $0.durationSeconds) > ($1.matchCount, $1.durationSeconds) }) {
      let overlaps = kept.contains { other in
        min(other.endSeconds, play.endSeconds) - max(other.startSeconds, play.startSeconds)
          > ClassifierTuning.maxMatchOverlapShare * min(other.durationSeconds, play.durationSeconds)
      }
      if !overlaps { kept.append(play) }
    }
    var runs: [Run] = []
    for play in kept.sorted(by: { $0.startSeconds < $1.startSeconds }) {
      guard let cluster = clusterOf(play.track.key) else { continue }
      if var last = runs.last, last.cluster == cluster {
        last.endSeconds = max(last.endSeconds, play.endSeconds)
        if play.matchCount > last.play.matchCount { last.play = play }
        runs[runs.count - 1] = last
      } else {
        runs.append(Run(cluster: cluster, startSeconds: play.startSeconds, endSeconds: play.endSeconds, play: play))
      }
    }
    while runs.count > 1 {
      var shortest: Int?
      for i in runs.indices {
        let start = i == 0 ? -Double.infinity : (runs[i - 1].endSeconds + runs[i].startSeconds) / 2
        let end = i == runs.count - 1 ? Double.infinity : (runs[i].endSeconds + runs[i + 1].startSeconds) / 2
        if end - start < ClassifierTuning.minUnknownSeconds { shortest = i }
      }
      guard let short = shortest else { break }
      // The weaker of the short part's run and its weaker neighbour goes.
      let neighbours = [short - 1, short + 1].filter { runs.indices.contains($0) }
      let candidates = [short] + neighbours
      let weakest = candidates.min { runs[$0].play.matchCount < runs[$1].play.matchCount }!
      runs.remove(at: weakest)
      // Neighbours of one cluster on each side of the run left out are now one run.
      if weakest > 0 && weakest < runs.count && runs[weakest - 1].cluster == runs[weakest].cluster {
        let next = runs.remove(at: weakest)
        runs[weakest - 1].endSeconds = next.endSeconds
        if next.play.matchCount > runs[weakest - 1].play.matchCount { runs[weakest - 1].play = next.play }
      }
    }
    return runs
  }

  /// The peaks of `query` from `fromSeconds` to `toSeconds`, as the signature of that excerpt.
  package static func excerpt(_ query: Signature, fromSeconds: Double, toSeconds: Double) -> Signature {
    let p = query.parameters
    let from = Int32((fromSeconds * p.framesPerSecond).rounded())
    let to = Int32((toSeconds * p.framesPerSecond).rounded())
    var part = query
    part.peaks = query.peaks.filter { $0.frame >= from && $0.frame < to }.map { peak in
      var shifted = peak
      shifted.frame -= from
      return shifted
    }
    part.sampleCount = Int(to - from) * p.hopSizeSamples
    part.audibleStartSeconds = 0
    part.audibleEndSeconds = Double(part.sampleCount) / Double(p.sampleRateHz)
    return part
  }

  /// The `perBlock` strongest peaks of each block of `peakBlockFrames` frames: a reference signature made from
  /// query peaks, as a catalog keeps fewer peaks than a query.
  static func thinned(_ signature: Signature, perBlock: Int) -> Signature {
    let blockFrames = Int32(signature.parameters.peakBlockFrames)
    var out: [Peak] = []
    out.reserveCapacity(signature.peaks.count)
    var start = 0
    let peaks = signature.peaks
    while start < peaks.count {
      let block = peaks[start].frame / blockFrames
      var end = start
      while end < peaks.count && peaks[end].frame / blockFrames == block { end += 1 }
      let strongest = peaks[start..<end].sorted { $0.strength > $1.strength }.prefix(perBlock)
      out.append(contentsOf: strongest.sorted { ($0.frame, $0.bin) < ($1.frame, $1.bin) })
      start = end
    }
    var thinned = signature
    thinned.peaks = out
    return thinned
  }
}

/// Keeps the plays that ended (not those withdrawn).
private final class EndedPlays: MatchEventSink {
  var plays: [MatchedPlay] = []
  func receive(_ event: MatchEvent) {
    if case .playEnded(let play) = event { plays.append(play) }
  }
}
