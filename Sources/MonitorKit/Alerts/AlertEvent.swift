import Foundation
import Reports

/// An alert that opened or closed: what `AlertEvaluator` reports, and what the play log, the log, the webhooks and
/// the command receive.
///
/// A value type: safe to pass between threads.
struct AlertEvent: Sendable, Equatable {
  /// When it happened (the evaluation that saw it).
  var time: Date
  /// True when the alert opened, false when it closed.
  var opened: Bool
  /// The channel, nil for the whole monitor.
  var channel: String?
  var kind: AlertKind
  /// When the condition began.
  var start: Date
  /// When it cleared; nil while open.
  var end: Date?
  var detail: String

  /// The log's event (`alert_opened` or `alert_closed`); its JSON line is also the webhooks' body and the command's
  /// standard input.
  var monitorEvent: MonitorEvent {
    var fields: [(String, MonitorEvent.Value)] = [
      ("kind", .string(kind.rawValue)), ("start", .time(start)), ("end", end.map(MonitorEvent.Value.time) ?? .null),
    ]
    if let end { fields.append(("duration_s", .number((end.timeIntervalSince(start) * 10).rounded() / 10))) }
    fields.append(("detail", .string(detail)))
    let message =
      opened
      ? "ALERT \(kind.rawValue): \(detail)"
      : String(format: "alert %@ over after %.0f s: %@", kind.rawValue, end?.timeIntervalSince(start) ?? 0, detail)
    return MonitorEvent(
      time: time, channel: channel, name: opened ? .alertOpened : .alertClosed, message: message, fields: fields)
  }

  /// The play log writer's command for it.
  var command: PlayLogWriter.Command {
    if let end, !opened {
      return .alertClosed(channel: channel, kind: kind.rawValue, start: start, end: end, detail: detail)
    }
    return .alertOpened(channel: channel, kind: kind.rawValue, start: start, detail: detail)
  }
}
