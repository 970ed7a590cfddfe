import Foundation

/// A change to an unknown segment already in the play log, when later airings showed that its cluster held two
/// recordings (`UnknownClusters`' retroactive split): the segment, found by its channel and start, gets a new
/// cluster, offset and fingerprint; with a `tail`, it is cut in two at `tail.start`, and the part from there to its
/// end becomes a segment (and an `unknown-music` stretch) of its own, with the same music confidence and clip.
///
/// A value type: safe to pass between threads; `Codable` for the spool.
public struct UnknownSegmentRevision: Sendable, Equatable, Codable {
  /// The part of the segment cut off: it starts at `start` and ends where the segment ended.
  public struct Tail: Sendable, Equatable, Codable {
    public var start: Date
    public var cluster: Int64
    public var clusterOffsetSeconds: Double
    /// Its reference signature (`.bmsig`), base64.
    public var fingerprint: String

    public init(start: Date, cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String) {
      self.start = start
      self.cluster = cluster
      self.clusterOffsetSeconds = clusterOffsetSeconds
      self.fingerprint = fingerprint
    }
  }

  public var channel: String
  public var start: Date
  public var cluster: Int64
  public var clusterOffsetSeconds: Double
  public var fingerprint: String
  public var tail: Tail?

  public init(
    channel: String, start: Date, cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String,
    tail: Tail? = nil
  ) {
    self.channel = channel
    self.start = start
    self.cluster = cluster
    self.clusterOffsetSeconds = clusterOffsetSeconds
    self.fingerprint = fingerprint
    self.tail = tail
  }
}

/// An unknown segment as the clusters are rebuilt from it at start: where it aired, its cluster and offset, its
/// reference fingerprint, and whether its cluster has become a catalog item (is never split).
public struct UnknownReferenceRow: Sendable, Equatable {
  public var channel: String
  public var start: Date
  public var cluster: Int64
  public var clusterOffsetSeconds: Double
  public var fingerprint: String
  public var promoted: Bool

  public init(
    channel: String, start: Date, cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String, promoted: Bool
  ) {
    self.channel = channel
    self.start = start
    self.cluster = cluster
    self.clusterOffsetSeconds = clusterOffsetSeconds
    self.fingerprint = fingerprint
    self.promoted = promoted
  }
}
