import Foundation

/// An alert that is open now, as the console, the API and `/metrics` read it from `ChannelStatus.alerts` (a
/// channel's) or `MonitorOverview.alerts` (the monitor's own).
///
/// A value type: safe to pass between threads.
struct ActiveAlert: Sendable, Equatable {
  var kind: AlertKind
  /// When the condition began (not when the alert opened, which is its `forSeconds` later).
  var since: Date
  /// For a person: the threshold and what was seen.
  var detail: String
}
