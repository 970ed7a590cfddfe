import Foundation

/// One unknown segment as promotion reads it (`unknown_segments`): where and when it aired, where it lies in its
/// cluster, its clip and, once promoted, the play it became.
///
/// A value type: safe to pass between threads.
public struct UnknownSegment: Sendable, Equatable {
  /// The play log's row id.
  public var id: Int64
  public var channel: String
  public var start: Date
  public var end: Date
  /// How sure the classifier is that it is music, 0…1.
  public var musicConfidence: Double
  public var cluster: Int64
  /// Where in the cluster's first airing the segment starts, in seconds (negative: before its start).
  public var clusterOffsetSeconds: Double
  /// The Opus clip of its air audio, when one was kept (the file may since have gone with the retention).
  public var clipPath: String?
  /// Where the clip starts in the air: the segment's start, or later when the clip lacks the segment's start (nil
  /// when the play log does not say: a clip written before migration `009_clips` ends where its segment ends).
  public var clipStart: Date?
  /// The `late` play it became when its cluster was added to the catalog; nil while it is unknown.
  public var playID: Int64?
  /// That play's catalog item key.
  public var promotedItemKey: String?

  public init(
    id: Int64, channel: String, start: Date, end: Date, musicConfidence: Double, cluster: Int64,
    clusterOffsetSeconds: Double, clipPath: String?, playID: Int64?, promotedItemKey: String? = nil,
    clipStart: Date? = nil
  ) {
    self.id = id
    self.channel = channel
    self.start = start
    self.end = end
    self.musicConfidence = musicConfidence
    self.cluster = cluster
    self.clusterOffsetSeconds = clusterOffsetSeconds
    self.clipPath = clipPath
    self.playID = playID
    self.promotedItemKey = promotedItemKey
    self.clipStart = clipStart
  }

  /// How long it aired, in seconds.
  public var durationSeconds: Double { end.timeIntervalSince(start) }
}
