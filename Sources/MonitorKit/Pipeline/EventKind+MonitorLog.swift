import Reports

/// The kinds of event the monitor's log reports besides those its inputs report and the play log's events table
/// stores (`gap`, `reconnect`, `overrun`, `xrun`, `lagging`, in `Reports`). `MonitorEvent` documents each kind's
/// fields.
extension EventKind {
  /// A catalog item went on air.
  static let playStarted: EventKind = "play_started"
  /// A play ended.
  static let playEnded: EventKind = "play_ended"
  /// A play reported as started was a repeated section of a longer play and is not logged.
  static let playWithdrawn: EventKind = "play_withdrawn"
  /// A lagging channel is analysing its audio as it comes again.
  static let caughtUp: EventKind = "caught_up"
  /// An alert opened: a condition (silence, a source down, …) held long enough (`AlertEvent`).
  static let alertOpened: EventKind = "alert_opened"
  /// An alert closed: its condition was clear long enough.
  static let alertClosed: EventKind = "alert_closed"
  /// Anything else, for a person to read (start-up, JACK server lost and back, play-log trouble, signals).
  static let notice: EventKind = "notice"

  /// How much an event of this kind matters in the log: a gap, an overrun, an xrun or a channel lagging is a
  /// warning; the rest (plays, reconnects, catching up, restarts, notices) is information. A notice that reports a
  /// problem says so itself (`MonitorLog.line(_:channel:severity:)`).
  var severity: LogSeverity {
    switch self {
    case .gap, .overrun, .xrun, .lagging: .warning
    default: .info
    }
  }
}
