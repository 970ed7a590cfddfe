import Foundation

/// When the monitor did not hear its channels because it was not running: the heartbeat a running monitor keeps,
/// and the last run's downtime recorded at the next start, so that `reconcile` calls a spot of that time
/// unmonitored, not missed.
extension PlayLogStore {
  /// What a gap written from a killed run's heartbeat says.
  package static let killedRunDetail =
    "broadcast-monitor ended without stopping (killed, crashed or a power cut): not heard from its last heartbeat "
    + "until it started again"

  /// Replaces the heartbeats with `heartbeats`, in one transaction (an SQLite play log has one writer: every row is
  /// its own).
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  public func recordHeartbeat(_ heartbeats: [ChannelHeartbeat]) throws {
    let now = Date()
    try database.transaction {
      try database.run("DELETE FROM channel_heartbeats", [])
      for heartbeat in heartbeats {
        try database.run(
          "INSERT INTO channel_heartbeats(channel_id, node, heard_through_ms, written_at_ms) VALUES(?, '', ?, ?)",
          [.integer(try channelID(named: heartbeat.channel)), .date(heartbeat.heardThrough), .date(now)])
      }
    }
  }

  /// Deletes the heartbeats, as a clean stop does (``PlayLogStorage/clearHeartbeat()``).
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  public func clearHeartbeat() throws {
    try database.run("DELETE FROM channel_heartbeats", [])
  }

  /// Records the last run's downtime at a start that listens to `channels` from `end` (see
  /// ``PlayLogStorage/recoverDowntime(channels:at:)``), in one transaction: a gap from each heartbeat the last run
  /// left, unless its channel has a gap without an end (which covers it: the run recorded that it stopped hearing
  /// the channel), ended at `end` for a channel of `channels`; then the gaps of `channels` without an end end at
  /// `end`. Call it once at start, after the spool's replay (whose heartbeats and gaps come first) and before the
  /// new run's own gaps.
  /// - Returns: the gaps written and ended.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func recoverDowntime(channels: [String], at end: Date) throws -> RecoveredDowntime {
    // One pass over the events, however many channels: a play log of years holds millions of them.
    let names = Array(repeating: "?", count: channels.count).joined(separator: ", ")
    let listened = channels.isEmpty ? "0" : "c.name IN (\(names))"
    return try database.transaction {
      var recovered = RecoveredDowntime()
      try database.forEachRow(
        """
        INSERT INTO events(channel_id, kind, start_ms, end_ms, detail)
        SELECT h.channel_id, ?, min(h.heard_through_ms, ?), CASE WHEN \(listened) THEN ? END, ?
        FROM channel_heartbeats AS h JOIN channels AS c ON c.id = h.channel_id
        WHERE h.channel_id NOT IN (
          SELECT channel_id FROM events WHERE kind = ? AND end_ms IS NULL AND channel_id IS NOT NULL)
        ORDER BY c.name
        RETURNING start_ms
        """,
        [.text(EventKind.gap.rawValue), .date(end)] + channels.map { .text($0) }
          + [.date(end), .text(Self.killedRunDetail), .text(EventKind.gap.rawValue)]
      ) { row in
        recovered.add(killedRunGapFrom: try row.date(0))
      }
      try database.run("DELETE FROM channel_heartbeats", [])
      guard !channels.isEmpty else { return recovered }
      recovered.endedGaps = try database.run(
        """
        UPDATE events SET end_ms = max(start_ms, ?)
        WHERE kind = ? AND end_ms IS NULL AND channel_id IN (SELECT id FROM channels WHERE name IN (\(names)))
        """, [.date(end), .text(EventKind.gap.rawValue)] + channels.map { .text($0) })
      return recovered
    }
  }
}
