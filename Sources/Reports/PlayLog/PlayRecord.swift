import Common
import Foundation

/// One play of a catalog item on a channel, with the item's metadata as the catalog had it.
///
/// Times are kept by the play log to the millisecond; `refOffsetSeconds` too. Its JSON (the play spool's) has the
/// metadata's fields beside the play's, see `PlayRecord+Codable.swift`.
///
/// A value type: safe to pass between threads.
public struct PlayRecord: Sendable, Equatable {
  /// The play log's id for this play; nil until it is recorded.
  public var id: Int64?
  /// The channel's name, as configured.
  public var channel: String
  /// The catalog's stable key for the item.
  public var itemKey: String
  /// The item's title, artist, kind and other metadata.
  public var metadata: TrackMetadata
  /// The item's length in the catalog, in seconds, if known.
  public var itemDurationSeconds: Double?
  /// When the item started on air.
  public var start: Date
  /// When it ended on air (for an open play: when the match was last confirmed).
  public var end: Date
  /// Where in the reference item the air started, in seconds (0 = from the top).
  public var refOffsetSeconds: Double
  /// Air speed relative to the reference (1.04 = played 4 % fast).
  public var speed: Double
  /// How sure the matcher is, 0…1.
  public var confidence: Double
  /// When the matcher detected the play.
  public var detectedAt: Date
  public var status: PlayStatus

  public init(
    id: Int64? = nil, channel: String, itemKey: String, metadata: TrackMetadata, itemDurationSeconds: Double? = nil,
    start: Date, end: Date, refOffsetSeconds: Double = 0, speed: Double = 1, confidence: Double, detectedAt: Date,
    status: PlayStatus
  ) {
    self.id = id
    self.channel = channel
    self.itemKey = itemKey
    self.metadata = metadata
    self.itemDurationSeconds = itemDurationSeconds
    self.start = start
    self.end = end
    self.refOffsetSeconds = refOffsetSeconds
    self.speed = speed
    self.confidence = confidence
    self.detectedAt = detectedAt
    self.status = status
  }

  /// A play whose item metadata is made of the fields given.
  public init(
    id: Int64? = nil, channel: String, itemKey: String, title: String, artist: String = "", album: String = "",
    isrc: String = "", label: String = "", kind: ItemKind = .song, attributes: [String: String] = [:],
    itemDurationSeconds: Double? = nil, start: Date, end: Date, refOffsetSeconds: Double = 0, speed: Double = 1,
    confidence: Double, detectedAt: Date, status: PlayStatus
  ) {
    self.init(
      id: id, channel: channel, itemKey: itemKey,
      metadata: TrackMetadata(
        title: title, artist: artist, album: album, isrc: isrc, label: label, kind: kind, attributes: attributes),
      itemDurationSeconds: itemDurationSeconds, start: start, end: end, refOffsetSeconds: refOffsetSeconds,
      speed: speed, confidence: confidence, detectedAt: detectedAt, status: status)
  }

  /// How long the item was on air, in seconds: `end - start`.
  public var durationSeconds: Double { end.timeIntervalSince(start) }
}
