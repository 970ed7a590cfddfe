import Foundation

/// The `alerts` report: every alert the monitor opened, one row each, by start: `channel` (empty for an alert about
/// the whole monitor), `kind`, `start`, `end` and `duration_s` (empty while the alert is open), `detail`. Times are
/// in each station's local time with its offset (the monitor's own alerts in the default zone). An alert is in the
/// report when it overlaps `[from, to)`.
///
/// Thread: any one thread (the reader's).
package struct AlertsReport: Sendable {
  package let scope: ReportScope

  package init(scope: ReportScope) {
    self.scope = scope
  }

  /// The columns.
  package static let header = ["channel", "kind", "start", "end", "duration_s", "detail"]

  /// Writes the header and one row per alert.
  /// - Throws: ``ReportError/noSuchChannel(_:known:path:)`` for a `--channel` the log does not have;
  ///   ``ReportError/emptySpan(from:to:)`` when `--to` is not after `--from`.
  package func write(from reader: PlayLogReader, to sink: any ReportRowSink) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    if let name = scope.channelName {
      let known = try reader.channels().values.sorted()
      guard known.contains(name) else { throw ReportError.noSuchChannel(name, known: known, path: reader.path) }
    }
    if let from = scope.from, let to = scope.to {
      let zone = scope.timeZoneOverride ?? scope.defaultTimeZone
      let calendar = LocalCalendar(
        timeZone: zone, fromMilliseconds: from.approximateMilliseconds, toMilliseconds: to.approximateMilliseconds)
      if to.milliseconds(on: calendar) <= from.milliseconds(on: calendar) {
        throw ReportError.emptySpan(from: from, to: to)
      }
    }
    // A day of margin each side for the local dates of `--from` and `--to`, resolved per station below.
    let margin = LocalCalendar.millisecondsPerDay
    let alerts = try reader.alerts(
      fromMilliseconds: scope.from.map { $0.approximateMilliseconds - margin } ?? .min,
      toMilliseconds: scope.to.map { $0.approximateMilliseconds + margin } ?? .max
    ).filter { scope.channelName == nil || $0.channel == scope.channelName }
    guard !alerts.isEmpty else { return }
    let first = alerts.map(\.start.millisecondsSince1970).min() ?? 0
    let last = alerts.map { ($0.end ?? $0.start).millisecondsSince1970 }.max() ?? first
    var calendars: [String: LocalCalendar] = [:]
    var encoder = ReportRowEncoder(style: sink.rowStyle)
    for alert in alerts {
      let zone = alert.channel.map(scope.timeZone(of:)) ?? scope.timeZoneOverride ?? scope.defaultTimeZone
      let calendar =
        calendars[zone.identifier]
        ?? LocalCalendar(timeZone: zone, fromMilliseconds: first, toMilliseconds: last)
      calendars[zone.identifier] = calendar
      let start = alert.start.millisecondsSince1970
      let end = alert.end?.millisecondsSince1970
      if let from = scope.from?.milliseconds(on: calendar), (end ?? .max) < from { continue }
      if let to = scope.to?.milliseconds(on: calendar), start >= to { continue }
      encoder.reset()
      encoder.append(text: alert.channel ?? "")
      encoder.append(text: alert.kind)
      encoder.append(time: start, on: calendar)
      if let end {
        encoder.append(time: end, on: calendar)
        encoder.append(milliseconds: end - start)
      } else {
        encoder.append(text: "")
        encoder.append(text: "")
      }
      encoder.append(text: alert.detail)
      try sink.writeEncodedRow(encoder.bytes)
    }
  }
}
