import Foundation

/// Reading the alerts (`report alerts`).
extension PlayLogReader {
  /// True when the file has the alerts table (a play log opened by this version or later).
  package func hasAlerts() throws -> Bool {
    try database.hasTable("alerts")
  }

  /// The alerts that overlap `[fromMilliseconds, toMilliseconds)` (an open one reaches to now), by start, then
  /// channel (the monitor's own first) and kind; empty when the file has no alerts table.
  package func alerts(fromMilliseconds: Int64, toMilliseconds: Int64) throws -> [AlertRecord] {
    guard try hasAlerts() else { return [] }
    var alerts: [AlertRecord] = []
    try database.forEachRow(
      """
      SELECT c.name, a.kind, a.start_ms, a.end_ms, a.detail FROM alerts AS a
        LEFT JOIN channels AS c ON c.id = a.channel_id
      WHERE a.start_ms < ? AND (a.start_ms >= ? OR a.end_ms IS NULL OR a.end_ms > ?)
      ORDER BY a.start_ms, c.name IS NOT NULL, c.name, a.kind
      """, [.integer(toMilliseconds), .integer(fromMilliseconds), .integer(fromMilliseconds)]
    ) { row in
      var channel: String?
      if case .text(let name) = row[0] { channel = name }
      alerts.append(
        AlertRecord(
          channel: channel, kind: try row.string(1), start: try row.date(2),
          end: try row.optionalDate(3), detail: try row.string(4)))
    }
    return alerts
  }
}
