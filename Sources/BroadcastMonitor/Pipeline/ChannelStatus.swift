import Foundation
import Matcher

/// What one channel is doing, as the log and the console show it: a value copied out of the channel's pipeline.
///
/// A value type: safe to pass between threads.
struct ChannelStatus: Sendable, Equatable {
  var name: String
  var source: String
  var input: InputStatus = .starting
  /// The matcher's state (idle, prerecording, matching).
  var matcher: StreamMatcher.State = .idle
  /// Peak input level over the last pump, in dBFS (−∞ for digital silence).
  var peakLevelDB: Float = -.infinity
  /// Plays on air now, with wall-clock start and end.
  var current: [CurrentPlay] = []
  /// Wall-clock time of the newest audio consumed, seconds since 1970.
  var lastAudioTime: Double?
  /// Plays recognized (withdrawn ones included), gaps and overrun notices since the start.
  var playCount = 0
  var gapCount = 0
  var overrunCount = 0
  /// Times the source came back after going away, since the start.
  var reconnectCount = 0
  /// The source's own sample rate (JACK's, for a JACK channel), when known.
  var sourceSampleRate: Double?
  /// Xruns of the audio server since the start (JACK channels).
  var xruns = 0
  /// Seconds of audio waiting in the input to be analysed, at the channel's last pump: how far the matcher is behind
  /// real time (see `LagTracker`).
  var lagSeconds = 0.0
  /// Since when the channel has been lagging (a `lagging` event was reported), nil while it keeps up.
  var laggingSince: Date?
  /// The newest plays recognized on the channel (at most `PlayHistory.kept`), oldest start first; withdrawn plays
  /// left out.
  var recentPlays: [RecentPlay] = []

  struct CurrentPlay: Sendable, Equatable {
    var title: String
    var artist: String
    var start: Date
    var end: Date
    var referenceOffsetSeconds: Double
    var speed: Double
    var confidence: Double
    /// The catalog item's kind (`song`, `ad`, `jingle`, `other`).
    var kind = ""
  }

  /// A play recognized on the channel, on air or ended.
  struct RecentPlay: Sendable, Equatable {
    /// Its play-log token: unique among the monitor's plays.
    var id: UInt64
    var channel: String
    var title: String
    var artist: String
    var start: Date
    /// Nil while on air.
    var end: Date?
  }
}
