import Common
import Foundation

/// Groups unknown segments by recording: each new segment's fingerprint is matched against every earlier one (any
/// channel, any day, ±6 % speed: the stream matcher's own search, over an in-memory catalog of the segments); one
/// that matches joins the earlier segment's cluster at its offset, any other starts a cluster. The play log keeps
/// each segment's fingerprint, cluster and offset, and `restore` rebuilds the index from them at start.
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

  /// Finds the cluster of a segment from its query signature (the matcher's peaks over the segment) and adds the
  /// segment to the index.
  public func assign(_ query: Signature) -> Assignment {
    lock.withLock {
      let reference = Self.thinned(query, perBlock: parameters.referencePeaksPerBlock)
      var assignment = Assignment(cluster: nextCluster, offsetSeconds: 0, joined: false, reference: reference)
      if let catalog, let match = bestMatch(of: query, in: catalog), let place = placement[match.track.key] {
        // The segment's start lies this far into the earlier segment's reference.
        let start = match.referenceOffsetSeconds - match.speed * match.startSeconds
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
  }

  /// The longest play the stream matcher finds of `query` in `catalog`, if it is at least
  /// `ClassifierTuning.clusterMinMatchSeconds` long.
  private func bestMatch(of query: Signature, in catalog: Catalog) -> MatchedPlay? {
    let collector = EndedPlays()
    let matcher = StreamMatcher(catalog: catalog, sink: collector)
    try? matcher.match(query)
    return collector.plays
      .filter { $0.durationSeconds >= ClassifierTuning.clusterMinMatchSeconds }
      .max { ($0.matchCount, $0.durationSeconds) < ($1.matchCount, $1.durationSeconds) }
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
