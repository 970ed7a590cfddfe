import Foundation

/// The audio clip of a catalog play as the play log stores it (`play_clips`): proof that the play aired
/// (`unknown.catalogPlayClips`), found again by its channel, item and span (`report proof-of-play`'s `clip`).
///
/// A value type: safe to pass between threads (the clip writer makes it, the play log writer stores it).
public struct PlayClipRecord: Sendable, Equatable, Codable {
  public var channel: String
  /// The catalog item's key.
  public var itemKey: String
  /// The play's start and end, as the monitor had them when the play ended.
  public var playStart: Date
  public var playEnd: Date
  /// The span of air the clip holds: the play's, or a later start when the play began before the oldest audio its
  /// channel keeps (the clip then lacks the play's start).
  public var clipStart: Date
  public var clipEnd: Date
  public var clipPath: String

  public init(
    channel: String, itemKey: String, playStart: Date, playEnd: Date, clipStart: Date, clipEnd: Date,
    clipPath: String
  ) {
    self.channel = channel
    self.itemKey = itemKey
    self.playStart = playStart
    self.playEnd = playEnd
    self.clipStart = clipStart
    self.clipEnd = clipEnd
    self.clipPath = clipPath
  }

  /// Seconds of the play's start that the clip lacks: 0 when it holds the whole play.
  public var missingSeconds: Double { max(0, clipStart.timeIntervalSince(playStart)) }
}
