import Foundation
import Matcher
import Reports

extension PlayRecord {
  /// The play log's record of a matcher's play: stream seconds become absolute times from `origin`, the time of
  /// stream second 0.
  init(_ play: MatchedPlay, channel: String, origin: Date, status: PlayStatus) {
    self.init(play, channel: channel, status: status) { origin.addingTimeInterval($0) }
  }

  /// The play log's record of a matcher's play, with stream seconds turned into times by `time`.
  init(_ play: MatchedPlay, channel: String, status: PlayStatus, time: (Double) -> Date) {
    self.init(
      channel: channel, itemKey: play.track.key, metadata: play.track.metadata,
      itemDurationSeconds: play.track.durationSeconds, start: time(play.startSeconds), end: time(play.endSeconds),
      refOffsetSeconds: play.referenceOffsetSeconds,
      speed: play.speed, confidence: play.confidence, detectedAt: time(play.detectedAtSeconds), status: status)
  }
}
