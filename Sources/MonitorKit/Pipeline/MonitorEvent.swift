import Foundation
import Reports

/// One thing the monitor reports: a play that started or ended, a gap, a reconnect, an overrun, a channel falling
/// behind real time or catching up, or a notice for a person. `MonitorLog` writes it as a text line or as a JSON object, and the console reads the recent ones.
///
/// A value type: safe to pass between threads.
struct MonitorEvent: Sendable, Equatable {
  /// What happened (`name`, the `event` field of a JSON line) is an `EventKind`, the type the play log's events table
  /// and the inputs' notices use too. The fields each kind of event has, in the order they are written:
  /// - `play_started`: `play_id`, `title`, `artist`, `kind`, `isrc`, `start`, `ref_offset_s`, `speed`,
  ///   `confidence`.
  /// - `play_ended`: `play_id`, `title`, `artist`, `kind`, `isrc`, `start`, `end`, `duration_s`.
  /// - `play_withdrawn` (a play reported as started was a repeated section of a longer play and is not logged):
  ///   `play_id`, `title`, `artist`, `kind`, `isrc`.
  /// - `gap` (the source went away): `start` (the end of the last audio heard), `end` (or null), `detail`.
  /// - `reconnect` (audio flows again), `overrun` (samples were dropped because the worker fell behind), `xrun` (the
  ///   audio server missed a deadline): `start`, `end`, `detail`.
  /// - `lagging` (the channel's matcher fell behind real time: audio waits to be analysed, see `LagTracker`): `start`
  ///   (since when), `end` (null), `lag_s` (seconds of audio waiting).
  /// - `caught_up` (a lagging channel is analysing its audio as it comes again): `start`, `end` (the span it was
  ///   lagging), `lag_s` (seconds of audio waiting now), `max_lag_s` (the most it was behind).
  /// - `alert_opened` (a condition held long enough, see `AlertEvaluator`), `alert_closed` (it was clear long
  ///   enough): `kind` (`silence`, `source_down`, `lagging`, `play_log_unwritable`, `no_catalog`, `node_down`),
  ///   `start` (when the condition began), `end` (null while open), `duration_s` (closed only), `detail`.
  /// - `notice` (anything else, for a person to read): none.
  /// A field's value in a JSON line.
  enum Value: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case time(Date)
    case null
  }

  var time: Date
  /// The channel it is about, nil for the whole monitor.
  var channel: String?
  var name: EventKind
  /// The text line's message, without time and channel.
  var message: String
  /// Per-event data, in the order they are written (see above).
  var fields: [(String, Value)] = []
  /// How much it matters: its kind's severity unless the event says otherwise (a notice about a problem).
  var severity: LogSeverity

  init(
    time: Date, channel: String?, name: EventKind, message: String, fields: [(String, Value)] = [],
    severity: LogSeverity? = nil
  ) {
    self.time = time
    self.channel = channel
    self.name = name
    self.message = message
    self.fields = fields
    self.severity = severity ?? name.severity
  }

  static func == (a: MonitorEvent, b: MonitorEvent) -> Bool {
    a.time == b.time && a.channel == b.channel && a.name == b.name && a.message == b.message
      && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
      && a.severity == b.severity
  }

  /// The value of field `key`, if the event has it.
  func field(_ key: String) -> Value? { fields.first { $0.0 == key }?.1 }

  /// `2026-11-30T00:41:12.345Z [channel] message`, always one line: the channel and the message (which quotes
  /// titles, file names and errors) pass through `DisplayWidth.printable`, so that a line break or an escape
  /// sequence in a title cannot forge a line or command the terminal.
  var textLine: String {
    DisplayWidth.printable(ISO8601Millis.format(time) + (channel.map { " [\($0)] " } ?? " ") + message)
  }

  /// The line for the systemd journal: `<4>[channel] message`, the syslog priority of its severity first (journald
  /// takes it as the line's priority and removes it) and no time (the journal stamps every line itself).
  var journalLine: String {
    "<\(severity.syslogPriority)>" + DisplayWidth.printable((channel.map { "[\($0)] " } ?? "") + message)
  }
}
