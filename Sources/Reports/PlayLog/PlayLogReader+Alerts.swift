import Foundation

/// Reading the alerts (`report alerts`).
extension PlayLogReader {
  /// True when the file has the alerts table (a play log opened by this version or later).
  package func hasAlerts() throws -> Bool {
    try database.firstRow("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alerts'") != nil
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
      WHERE a.start_ms < ? AND (a.end_ms IS NULL OR a.end_ms >= ?)
      ORDER BY a.start_ms, c.name IS NOT NULL, c.name, a.kind
      """, [.integer(toMilliseconds), .integer(fromMilliseconds)]
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

/// Pages of alerts, newest start first, for the HTTP API (`GET /api/v1/alerts`), paged as the plays are.
extension PlayLogReader {
  /// One alert as the API lists it: the row's id and the alert.
  package struct AlertRow: Sendable, Equatable {
    package var id: Int64
    package var alert: AlertRecord
  }

  /// Up to `filter.limit` alerts that overlap `[filter.from, filter.to)` (an open one reaches to now, so an alert
  /// that began before `from` and lasted into it is listed too), newest start first, and the cursor of the next
  /// page (nil on the last one); none when the file has no alerts table. `filter.channel` names one channel: the
  /// monitor's own alerts (no channel) are listed with every channel's, since they concern it too.
  package func alertsPage(_ filter: PageFilter) throws -> (rows: [AlertRow], next: PageCursor?) {
    guard try hasAlerts() else { return ([], nil) }
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    if let channel = filter.channel {
      conditions.append("(c.name = ? OR a.channel_id IS NULL)")
      values.append(.text(channel))
    }
    if let from = filter.from {
      conditions.append("(a.end_ms IS NULL OR a.end_ms >= ?)")
      values.append(.date(from))
    }
    if let to = filter.to {
      conditions.append("a.start_ms < ?")
      values.append(.date(to))
    }
    if let cursor = filter.cursor {
      conditions.append("(a.start_ms < ? OR (a.start_ms = ? AND a.id < ?))")
      values += [.integer(cursor.startMilliseconds), .integer(cursor.startMilliseconds), .integer(cursor.id)]
    }
    let sql = """
      SELECT a.id, c.name, a.kind, a.start_ms, a.end_ms, a.detail
      FROM alerts AS a
        LEFT JOIN channels AS c ON c.id = a.channel_id
      \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
      ORDER BY a.start_ms DESC, a.id DESC
      LIMIT ?
      """
    var rows: [AlertRow] = []
    try database.forEachRow(sql, values + [.integer(Int64(filter.limit) + 1)]) { row in
      var channel: String?
      if case .text(let name) = row[1] { channel = name }
      rows.append(
        AlertRow(
          id: try row.int64(0),
          alert: AlertRecord(
            channel: channel, kind: try row.string(2), start: try row.date(3), end: try row.optionalDate(4),
            detail: try row.string(5))))
    }
    guard rows.count > filter.limit, let last = rows.prefix(filter.limit).last else { return (rows, nil) }
    return (
      Array(rows.prefix(filter.limit)),
      PageCursor(startMilliseconds: last.alert.start.millisecondsSince1970, id: last.id)
    )
  }
}
