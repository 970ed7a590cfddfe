import Foundation

/// Alerts in the play log: an alert is written when it opens and again when it closes. Both writes are idempotent
/// (an alert is its channel, kind and start), so that the play log writer may retry them and the spool may replay
/// them without a second row.
extension PlayLogStore {
  /// Records an open alert, unless it is in the play log already.
  /// - Returns: true when the row was added, false when it was there.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func openAlert(channel: String?, kind: String, start: Date, detail: String) throws -> Bool {
    try database.transaction {
      let channelRowID = try channel.map { try self.channelID(named: $0) }
      let added = try database.run(
        """
        INSERT INTO alerts(channel_id, kind, start_ms, end_ms, detail) VALUES(?, ?, ?, NULL, ?)
        ON CONFLICT DO NOTHING
        """,
        [.integer(channelRowID), .text(kind), .date(start), .text(detail)])
      return added == 1
    }
  }

  /// Closes an alert at `end` with `detail` (what was seen while it held). An alert that is not in the play log
  /// (its opening was lost) is added closed, so that closing it twice or without its opening leaves one row.
  /// - Throws: ``PlayLogError/invalidEvent(reason:path:)`` for an end before the start; ``SQLiteError`` when the
  ///   file cannot be written.
  public func closeAlert(channel: String?, kind: String, start: Date, end: Date, detail: String) throws {
    try validateAlertSpan(kind: kind, start: start, end: end)
    try database.transaction {
      let channelRowID = try channel.map { try self.channelID(named: $0) }
      try database.run(
        """
        INSERT INTO alerts(channel_id, kind, start_ms, end_ms, detail) VALUES(?, ?, ?, ?, ?)
        ON CONFLICT(coalesce(channel_id, 0), kind, start_ms) DO UPDATE SET end_ms = excluded.end_ms,
          detail = excluded.detail
        """,
        [.integer(channelRowID), .text(kind), .date(start), .date(end), .text(detail)])
    }
  }

  /// Closes every alert a stopped monitor left open (a crash, SIGKILL) at `end`, the time of the new start: nobody
  /// watched between the last run's end and then, so the alert's span says so in its detail. Call it once at start.
  /// - Returns: how many were closed.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func recoverOpenAlerts(at end: Date) throws -> Int {
    try database.transaction {
      try database.run(
        """
        UPDATE alerts SET end_ms = max(start_ms, ?),
          detail = detail || '; still open when the monitor stopped, closed at its next start'
        WHERE end_ms IS NULL
        """, [.date(end)])
    }
  }
}
