import Foundation

/// One row of the play log's `alerts` table: a condition that held on a channel (or on the whole monitor) from
/// `start` to `end`.
///
/// A value type: safe to pass between threads.
package struct AlertRecord: Sendable, Equatable {
  /// The channel, nil for an alert about the whole monitor (the play log cannot be written, a node is down).
  package var channel: String?
  /// What held: `silence`, `source_down`, `lagging`, `play_log_unwritable`, `no_catalog`, `node_down` (the
  /// monitor's `AlertKind`); any word is stored.
  package var kind: String
  package var start: Date
  /// Nil while the alert is open.
  package var end: Date?
  /// For a person: the threshold and what was seen.
  package var detail: String

  package init(channel: String?, kind: String, start: Date, end: Date?, detail: String) {
    self.channel = channel
    self.kind = kind
    self.start = start
    self.end = end
    self.detail = detail
  }
}
