import Foundation

/// What a start recorded of the last run's downtime (``PlayLogStorage/recoverDowntime(channels:at:)``), for its log.
///
/// A value type: safe to pass between threads.
public struct RecoveredDowntime: Sendable, Equatable {
  /// Gaps written from the heartbeats a run that was killed left, one per channel.
  public var killedRunGaps: Int
  /// The oldest of those heartbeats: since when the killed run's channels are not heard, at the most.
  public var oldestHeartbeat: Date?
  /// Gaps without an end (a stop's, a removed channel's, or one of the input's) that the start ended.
  public var endedGaps: Int

  public init(killedRunGaps: Int = 0, oldestHeartbeat: Date? = nil, endedGaps: Int = 0) {
    self.killedRunGaps = killedRunGaps
    self.oldestHeartbeat = oldestHeartbeat
    self.endedGaps = endedGaps
  }

  /// Counts a gap written from a killed run's heartbeat at `start` (both stores).
  mutating func add(killedRunGapFrom start: Date) {
    killedRunGaps += 1
    oldestHeartbeat = min(oldestHeartbeat ?? start, start)
  }
}
