import Foundation
import Matcher
import Reports

/// Turns one matcher's events into play-log commands and log lines for one channel.
///
/// Matcher play ids map to play-log tokens here, so a play keeps its row from start to end. A sink can be told to
/// stop taking new plays (`acceptsNewPlays = false`): a matcher retired by a catalog reload then only finishes the
/// plays it already reported. `suppress` drops a new play that another matcher already reports (the same track at
/// the same time), so a reload never logs a play twice.
///
/// Threads: the channel's worker (the thread that feeds the matcher).
final class PlayEventSink: MatchEventSink {
  let channel: String
  private let writer: PlayLogWriter
  private let log: MonitorLog
  /// Stream seconds → wall-clock time; set by the pipeline for the segment being fed.
  var clock: StreamClock
  var acceptsNewPlays = true
  var suppress: (MatchedPlay) -> Bool = { _ in false }
  private(set) var tokens: [Int: UInt64] = [:]
  /// Where the plays this sink starts, ends and withdraws are counted and listed for the channel's status.
  var history = PlayHistory()

  init(channel: String, writer: PlayLogWriter, log: MonitorLog, clock: StreamClock) {
    self.channel = channel
    self.writer = writer
    self.log = log
    self.clock = clock
  }

  /// True while a play this sink reported is still running.
  var hasOpenPlays: Bool { !tokens.isEmpty }

  func receive(_ event: MatchEvent) {
    switch event {
    case .playStarted(let play):
      guard acceptsNewPlays, !suppress(play) else { return }
      let token = writer.makeToken()
      tokens[play.id] = token
      let record = PlayRecord(play, channel: channel, status: .open) { self.clock.date(atStream: $0) }
      history.started(id: token, record)
      writer.submit(.start(token: token, play: record))
      log.record(
        MonitorEvent(
          time: Date(), channel: channel, name: .playStarted,
          message: "play started: \(Self.describe(play)) at \(ISO8601Millis.format(record.start)), "
            + String(
              format: "%@ into the reference, speed %.1f %%, confidence %.2f",
              Self.clockText(play.referenceOffsetSeconds), play.speed * 100, play.confidence),
          fields: Self.trackFields(token, play) + [
            ("start", .time(record.start)), ("ref_offset_s", .number(play.referenceOffsetSeconds)),
            ("speed", .number(play.speed)), ("confidence", .number(play.confidence)),
          ]))
    case .playContinues(let play):
      guard let token = tokens[play.id] else { return }
      writer.submit(update(token, play, closed: false))
      history.logged(
        id: token, start: clock.date(atStream: play.startSeconds), end: nil,
        refOffsetSeconds: play.referenceOffsetSeconds, speed: play.speed)
    case .playEnded(let play):
      guard let token = tokens.removeValue(forKey: play.id) else { return }
      writer.submit(update(token, play, closed: true))
      let start = clock.date(atStream: play.startSeconds)
      let end = clock.date(atStream: play.endSeconds)
      history.logged(
        id: token, start: start, end: end, refOffsetSeconds: play.referenceOffsetSeconds, speed: play.speed)
      log.record(
        MonitorEvent(
          time: Date(), channel: channel, name: .playEnded,
          message: "play ended: \(Self.describe(play)), \(Self.clockText(play.durationSeconds)) on air until "
            + ISO8601Millis.format(end),
          fields: Self.trackFields(token, play) + [
            ("start", .time(start)), ("end", .time(end)),
            ("duration_s", .number(play.durationSeconds)),
          ]))
    case .playRetracted(let play):
      guard let token = tokens.removeValue(forKey: play.id) else { return }
      writer.submit(.retract(token: token))
      history.withdrawn(id: token)
      log.record(
        MonitorEvent(
          time: Date(), channel: channel, name: .playWithdrawn,
          message: "play withdrawn: \(Self.describe(play)) was a repeated section of a longer play",
          fields: Self.trackFields(token, play)))
    case .noMatch:
      break
    }
  }

  private func update(_ token: UInt64, _ play: MatchedPlay, closed: Bool) -> PlayLogWriter.Command {
    .update(
      token: token, start: clock.date(atStream: play.startSeconds), end: clock.date(atStream: play.endSeconds),
      refOffsetSeconds: play.referenceOffsetSeconds, speed: play.speed, confidence: play.confidence, closed: closed)
  }

  /// The fields that name the play and its item in a `MonitorEvent`.
  private static func trackFields(_ token: UInt64, _ play: MatchedPlay) -> [(String, MonitorEvent.Value)] {
    let m = play.track.metadata
    return [
      ("play_id", .integer(Int(truncatingIfNeeded: token))), ("title", .string(m.title)),
      ("artist", .string(m.artist)), ("kind", .string(m.kind.rawValue)), ("isrc", .string(m.isrc)),
    ]
  }

  static func describe(_ play: MatchedPlay) -> String {
    let m = play.track.metadata
    return "\"\(m.title)\"" + (m.artist.isEmpty ? "" : " by \(m.artist)") + " (\(m.kind.rawValue))"
  }

  /// `m:ss.s`.
  static func clockText(_ seconds: Double) -> String {
    let s = max(0, seconds)
    return String(format: "%d:%04.1f", Int(s / 60), s.truncatingRemainder(dividingBy: 60))
  }
}
