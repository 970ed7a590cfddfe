import Common

/// What an alert is about: the condition that held. The raw value names the alert in the play log's `alerts` table,
/// the log's `alert_opened`/`alert_closed` lines, the webhooks' JSON and the configuration's `kinds`.
///
/// A value type: safe to pass between threads.
enum AlertKind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
  /// The channel's level stayed below a threshold (dead air).
  case silence
  /// The channel's stream or JACK source delivered no audio (the input is reconnecting, or never started).
  case sourceDown = "source_down"
  /// The channel's matcher fell behind real time.
  case lagging
  /// The play log could not be written (the whole monitor: its alert has no channel).
  case playLogUnwritable = "play_log_unwritable"
  /// Nothing from the catalog aired on the channel for a while.
  case noCatalog = "no_catalog"
  /// Another node of a PostgreSQL deployment wrote no heartbeat for a while: nothing from its channels reaches the
  /// play log (the whole monitor's alert: no channel).
  case nodeDown = "node_down"

  init(from decoder: any Decoder) throws { self = try decoder.word(of: Self.self) }

  /// The configuration key of the condition (`alerts.silence`, `alerts.sourceDown`, …).
  var settingsKey: String {
    switch self {
    case .silence: "silence"
    case .sourceDown: "sourceDown"
    case .lagging: "lagging"
    case .playLogUnwritable: "playLogUnwritable"
    case .noCatalog: "noCatalog"
    case .nodeDown: "nodeDown"
    }
  }

  /// Whether the alert is the whole monitor's (no channel), set in the `alerts` section only.
  var isMonitorWide: Bool { self == .playLogUnwritable || self == .nodeDown }
}
