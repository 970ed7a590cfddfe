import Foundation

/// A stretch of a channel's air as the play log stores it (`air_stretches`), with its unknown segment
/// (`unknown_segments`) when it is other music of 20 s or more.
///
/// A value type: safe to pass between threads (the channel worker makes it, the play log writer stores it).
public struct AirStretchRecord: Sendable, Equatable, Codable {
  /// What the play log keeps of an unknown segment besides its stretch.
  public struct Unknown: Sendable, Equatable, Codable {
    /// The cluster: the same recording aired again has the same number.
    public var cluster: Int64
    /// Where in the cluster's first airing this segment starts, in seconds (negative: before its start).
    public var clusterOffsetSeconds: Double
    /// The segment's reference signature (`.bmsig`), base64.
    public var fingerprint: String
    /// The audio clip, when one was kept.
    public var clipPath: String?
    /// The span of air the clip holds: the segment's, or a later start when the segment began before the oldest
    /// audio its channel keeps (the clip then lacks the segment's start). Nil without a clip.
    public var clipStart: Date?
    public var clipEnd: Date?

    public init(
      cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String, clipPath: String? = nil,
      clipStart: Date? = nil, clipEnd: Date? = nil
    ) {
      self.cluster = cluster
      self.clusterOffsetSeconds = clusterOffsetSeconds
      self.fingerprint = fingerprint
      self.clipPath = clipPath
      self.clipStart = clipStart
      self.clipEnd = clipEnd
    }
  }

  public var channel: String
  public var start: Date
  public var end: Date
  /// `catalog`, `unknown-music`, `speech`, `silence` or `mixed`.
  public var label: String
  /// The catalog item's key, for `catalog`.
  public var itemKey: String?
  public var musicConfidence: Double
  public var unknown: Unknown?

  public init(
    channel: String, start: Date, end: Date, label: String, itemKey: String? = nil, musicConfidence: Double,
    unknown: Unknown? = nil
  ) {
    self.channel = channel
    self.start = start
    self.end = end
    self.label = label
    self.itemKey = itemKey
    self.musicConfidence = musicConfidence
    self.unknown = unknown
  }
}
