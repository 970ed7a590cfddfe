import Foundation

/// Alerts, the labelled timeline and the unknown segments in a PostgreSQL play log: the same rows, and the same
/// idempotent writes, as `PlayLogStore+Alerts.swift` and `PlayLogStore+AirStretches.swift` for SQLite.
extension PostgreSQLPlayLogStore {
  @discardableResult
  public func openAlert(channel: String?, kind: String, start: Date, detail: String) throws -> Bool {
    try connection.transaction {
      let channelRowID = try channel.map { try self.channelID(named: $0) }
      return
        !(try connection.query(
          """
          INSERT INTO alerts(channel_id, kind, start_ms, end_ms, detail, node) VALUES($1, $2, $3, NULL, $4, $5)
          ON CONFLICT DO NOTHING RETURNING id
          """,
          [.integer(channelRowID), .text(kind), .date(start), .text(detail), .text(node)]
        )
        .isEmpty)
    }
  }

  public func closeAlert(channel: String?, kind: String, start: Date, end: Date, detail: String) throws {
    try validateAlertSpan(kind: kind, start: start, end: end)
    try connection.transaction {
      let channelRowID = try channel.map { try self.channelID(named: $0) }
      try connection.query(
        """
        INSERT INTO alerts(channel_id, kind, start_ms, end_ms, detail, node) VALUES($1, $2, $3, $4, $5, $6)
        ON CONFLICT(coalesce(channel_id, 0), kind, start_ms) DO UPDATE SET end_ms = excluded.end_ms,
          detail = excluded.detail
        """,
        [.integer(channelRowID), .text(kind), .date(start), .date(end), .text(detail), .text(node)])
    }
  }

  /// Closes the open alerts of the channels this node holds, and those of the whole monitor (no channel) that this
  /// node opened; another node's are its own to close. A `node_down` that several nodes recorded is the node's
  /// that opened it first.
  @discardableResult
  public func recoverOpenAlerts(at end: Date) throws -> Int {
    try connection.query(
      """
      UPDATE alerts SET end_ms = GREATEST(start_ms, $1),
        detail = detail || '; still open when the monitor stopped, closed at its next start'
      WHERE end_ms IS NULL AND (channel_id IN (SELECT channel_id FROM channel_owners WHERE node = $2)
        OR (channel_id IS NULL AND node = $2))
      RETURNING id
      """, [.date(end), .text(node)]
    ).count
  }

  public func record(_ stretch: AirStretchRecord) throws {
    guard stretch.end >= stretch.start, stretch.musicConfidence.isFinite else {
      throw PlayLogError.invalidEvent(
        reason: "the \(stretch.label) stretch of \(stretch.channel) ends at \(ISO8601Millis.format(stretch.end)), "
          + "before its start \(ISO8601Millis.format(stretch.start))", path: path)
    }
    try connection.transaction {
      let channelRowID = try self.channelID(named: stretch.channel)
      try connection.query(
        """
        INSERT INTO air_stretches(channel_id, start_ms, end_ms, label, item_key, music_confidence)
        VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT(channel_id, start_ms) DO NOTHING
        """,
        [
          .integer(channelRowID), .date(stretch.start), .date(stretch.end), .text(stretch.label),
          .text(stretch.itemKey), .real(stretch.musicConfidence),
        ])
      if let unknown = stretch.unknown {
        try connection.query(
          """
          INSERT INTO unknown_segments(
            channel_id, start_ms, end_ms, music_confidence, cluster, cluster_offset_ms, fingerprint, clip_path,
            clip_start_ms, clip_end_ms)
          VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT(channel_id, start_ms) DO NOTHING
          """,
          [
            .integer(channelRowID), .date(stretch.start), .date(stretch.end), .real(stretch.musicConfidence),
            .integer(unknown.cluster), .integer(Date.milliseconds(fromSeconds: unknown.clusterOffsetSeconds)),
            .text(unknown.fingerprint), .text(unknown.clipPath), .date(unknown.clipStart), .date(unknown.clipEnd),
          ])
      }
    }
  }

  public func unknownFingerprints() throws -> [(cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String)] {
    try connection.query(
      "SELECT cluster, cluster_offset_ms, fingerprint FROM unknown_segments ORDER BY start_ms, channel_id"
    ).map { row in
      (try row.int64(0), Double(try row.int64(1)) / 1000, try row.string(2))
    }
  }
}
