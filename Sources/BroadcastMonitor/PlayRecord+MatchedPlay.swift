import Foundation
import Matcher
import Reports

extension PlayRecord {
  /// The play log's record of a matcher's play: stream seconds become absolute times from `origin`, the time of
  /// stream second 0.
  init(_ play: MatchedPlay, channel: String, origin: Date, status: PlayStatus) {
    let m = play.track.metadata
    self.init(
      channel: channel, itemKey: play.track.key, title: m.title, artist: m.artist, album: m.album, isrc: m.isrc,
      label: m.label, kind: m.kind.rawValue, attributes: m.attributes, itemDurationSeconds: play.track.durationSeconds,
      start: origin.addingTimeInterval(play.startSeconds), end: origin.addingTimeInterval(play.endSeconds),
      refOffsetSeconds: play.referenceOffsetSeconds, speed: play.speed, confidence: play.confidence,
      detectedAt: origin.addingTimeInterval(play.detectedAtSeconds), status: status)
  }
}
