/// A play the matcher has found: a catalog track on the air from `startSeconds` to `endSeconds` of stream time.
public struct MatchedPlay: Sendable, Equatable {
  /// Serial number of the play within its matcher, from 1.
  public var id: Int
  public var track: CatalogTrack
  /// Stream time of the start and end (the end grows while the play continues).
  public var startSeconds: Double
  public var endSeconds: Double
  /// Where in the reference the play started, in seconds.
  public var referenceOffsetSeconds: Double
  /// Reference seconds per broadcast second: 1.04 means played 4 % fast.
  public var speed: Double
  /// True when pitch moved with speed (resampled); false when only tempo changed (time-stretched).
  public var pitchShifted: Bool
  /// Share of the reference's hashes found in the broadcast over the play, 0…1.
  public var confidence: Double
  /// Stream time at which the play was first reported.
  public var detectedAtSeconds: Double
  /// Aligned matches so far.
  public var matchCount: Int

  public var durationSeconds: Double { endSeconds - startSeconds }
}

/// What a stream matcher reports, in stream order (ShazamKit's session results, for broadcast).
public enum MatchEvent: Sendable, Equatable {
  case playStarted(MatchedPlay)
  case playContinues(MatchedPlay)
  case playEnded(MatchedPlay)
  /// A play reported as started turned out to be a section of the same track that another, much stronger play
  /// explains (music repeats itself): it is withdrawn instead of ended. A play log deletes or marks it.
  case playRetracted(MatchedPlay)
  /// Nothing from the catalog was on the air over the last `noMatchIntervalSeconds`, up to this stream time.
  case noMatch(atSeconds: Double)
}

/// Receives a matcher's events, on the thread that feeds the matcher.
public protocol MatchEventSink: AnyObject {
  func receive(_ event: MatchEvent)
}
