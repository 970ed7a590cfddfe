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

  public let parameters: FingerprintParameters
  private let lock = NSLock()
  private var catalog: Catalog?
  /// Each indexed segment's cluster and offset, by its key in `catalog`.
  private var placement: [String: (cluster: Int64, offsetSeconds: Double)] = [:]
  private var nextCluster: Int64 = 1
  private var nextKey = 1

  public init(parameters: FingerprintParameters) {
    self.parameters = parameters
  }

  /// Segments in the index.
  public var segmentCount: Int { lock.withLock { placement.count } }

  /// Adds segments from the play log (their reference signatures, clusters and offsets), without matching them.
  public func restore(_ segments: [(reference: Signature, cluster: Int64, offsetSeconds: Double)]) throws {
    try lock.withLock {
      let builder = catalog.map(CatalogBuilder.init(editing:)) ?? CatalogBuilder(parameters: parameters)
      for s in segments where s.reference.parameters == parameters {
        let key = "unknown-\(nextKey)"
        nextKey += 1
        builder.add(signature: s.reference, key: key, sourcePath: "", metadata: TrackMetadata(title: key))
        placement[key] = (s.cluster, s.offsetSeconds)
        nextCluster = max(nextCluster, s.cluster + 1)
      }
      if builder.trackCount > 0 { catalog = try builder.build() }
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
      return place(query, match: match, partStartSeconds: 0)
    }
  }

  /// The cluster of the earlier segment that `query` matches longest, nil when none does; the index is unchanged
  /// (for unknown music still on air).
  public func identify(_ query: Signature) -> Int64? {
    lock.withLock {
      guard let catalog, let match = Self.longest(matches(of: query, in: catalog)) else { return nil }
      return placement[match.track.key]?.cluster
    }
  }

  /// Finds where a segment belongs, part by part: when the earlier segments of two or more clusters match it one
  /// after the other, it is cut halfway between their matches (each part at least
  /// `ClassifierTuning.minUnknownSeconds` long), and each part joins its cluster and enters the index as a segment
  /// of its own. Otherwise the segment is one part, placed as `assign` places it. The parts cover the segment, in
  /// order.
  public func assignParts(_ query: Signature) -> [Part] {
    lock.withLock {
      let found = catalog.map { matches(of: query, in: $0) } ?? []
      let runs = Self.runs(found, placement: placement)
      let total = query.durationSeconds
      guard runs.count > 1 else {
        let assignment = place(query, match: Self.longest(found), partStartSeconds: 0)
        return [Part(startSeconds: 0, endSeconds: total, assignment: assignment)]
      }
      var parts: [Part] = []
      for (i, run) in runs.enumerated() {
        let start = i == 0 ? 0 : (runs[i - 1].endSeconds + run.startSeconds) / 2
        let end = i == runs.count - 1 ? total : (run.endSeconds + runs[i + 1].startSeconds) / 2
        let part = Self.excerpt(query, fromSeconds: start, toSeconds: end)
        parts.append(
          Part(startSeconds: start, endSeconds: end, assignment: place(part, match: run.play, partStartSeconds: start)))
      }
      return parts
    }
  }

  /// Places `query` in the cluster of `match` (a play of the earlier segments' catalog over the whole segment, whose
  /// part `query` is, from `partStartSeconds`), or in a new cluster without one; then indexes it. Inside the lock.
  private func place(_ query: Signature, match: MatchedPlay?, partStartSeconds: Double) -> Assignment {
    let reference = Self.thinned(query, perBlock: parameters.referencePeaksPerBlock)
    var assignment = Assignment(cluster: nextCluster, offsetSeconds: 0, joined: false, reference: reference)
    if let match, let place = placement[match.track.key] {
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
    let builder = catalog.map(CatalogBuilder.init(editing:)) ?? CatalogBuilder(parameters: parameters)
    builder.add(signature: reference, key: key, sourcePath: "", metadata: TrackMetadata(title: key))
    if let built = try? builder.build() {
      catalog = built
      placement[key] = (assignment.cluster, assignment.offsetSeconds)
    }
    return assignment
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
  static func runs(_ plays: [MatchedPlay], placement: [String: (cluster: Int64, offsetSeconds: Double)]) -> [Run] {
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
      guard let cluster = placement[play.track.key]?.cluster else { continue }
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
  static func excerpt(_ query: Signature, fromSeconds: Double, toSeconds: Double) -> Signature {
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
