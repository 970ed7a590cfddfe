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
  /// Plays on air now, with wall-clock start and end, the newest start first (see `onAir(_:)`).
  var current: [CurrentPlay] = []
  /// Unknown music on air now (music that matched nothing in the catalog), nil when there is none or a catalog play
  /// is on air.
  var unknownMusic: UnknownMusic?
  /// Wall-clock time of the newest audio consumed, seconds since 1970.
  var lastAudioTime: Double?
  /// Why the input has no audio, as its latest gap notice said it (a stream refused or gone, a JACK port gone, with
  /// the retry): nil from its reconnect on, which every input that reports a gap reports when audio flows again.
  var inputProblem: String?
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
  /// The level second by second over the last couple of minutes (the alerts' silence reads it).
  var levelSeconds = LevelHistory()
  /// The channel's open alerts (silence, source down, lagging, nothing from the catalog), oldest first.
  var alerts: [ActiveAlert] = []

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

  /// Unknown music on air: since when, and its cluster once its audio matched an earlier unknown segment.
  struct UnknownMusic: Sendable, Equatable {
    var since: Date
    var cluster: Int64?
  }

  /// A play recognized on the channel, on air or ended.
  struct RecentPlay: Sendable, Equatable {
    /// Its play-log token: unique among the monitor's plays.
    var id: UInt64
    var channel: String
    var title: String
    var artist: String
    var start: Date
    /// Nil while on air. A play the next item has replaced ends at its last match until the matcher closes it (its
    /// end in the play log may then move a little, to the reference's end).
    var end: Date?
  }

  /// The plays of `running` (a matcher's running plays) that are on air, the newest start first. A play whose last
  /// match came before another play started is over, though the matcher keeps it running for `maxGapSeconds` in
  /// case its matches come back (a voice-over can hide a song): the next item is on air from its start. Plays that
  /// overlap (a crossfade) are both on air.
  static func onAir(_ running: [MatchedPlay]) -> [MatchedPlay] {
    running.filter { play in !running.contains { $0.id != play.id && $0.startSeconds > play.endSeconds } }
      .sorted { ($0.startSeconds, $0.id) > ($1.startSeconds, $1.id) }
  }
}
