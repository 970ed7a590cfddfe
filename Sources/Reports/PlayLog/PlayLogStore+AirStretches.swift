import Foundation

/// The labelled timeline and the unknown segments (`Migrations.unknownMusic`).
extension PlayLogStore {
  /// Records a stretch (and its unknown segment), in one transaction. A stretch already recorded (same channel and
  /// start: a replayed write) is left as it is.
  /// - Throws: ``PlayLogError/invalidEvent(reason:path:)`` for an end before the start; ``SQLiteError`` when the
  ///   file cannot be written.
  public func record(_ stretch: AirStretchRecord) throws {
    guard stretch.end >= stretch.start, stretch.musicConfidence.isFinite else {
      throw PlayLogError.invalidEvent(
        reason: "the \(stretch.label) stretch of \(stretch.channel) ends at \(ISO8601Millis.format(stretch.end)), "
          + "before its start \(ISO8601Millis.format(stretch.start))", path: path)
    }
    try database.transaction {
      let channelRowID = try self.channelID(named: stretch.channel)
      try database.run(
        """
        INSERT INTO air_stretches(channel_id, start_ms, end_ms, label, item_key, music_confidence)
        VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(channel_id, start_ms) DO NOTHING
        """,
        [
          .integer(channelRowID), .date(stretch.start), .date(stretch.end), .text(stretch.label),
          stretch.itemKey.map { .text($0) } ?? .null, .real(stretch.musicConfidence),
        ])
      if let unknown = stretch.unknown {
        try database.run(
          """
          INSERT INTO unknown_segments(
            channel_id, start_ms, end_ms, music_confidence, cluster, cluster_offset_ms, fingerprint, clip_path,
            clip_start_ms, clip_end_ms)
          VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(channel_id, start_ms) DO NOTHING
          """,
          [
            .integer(channelRowID), .date(stretch.start), .date(stretch.end), .real(stretch.musicConfidence),
            .integer(unknown.cluster), .integer(Date.milliseconds(fromSeconds: unknown.clusterOffsetSeconds)),
            .text(unknown.fingerprint), .text(unknown.clipPath), .date(unknown.clipStart), .date(unknown.clipEnd),
          ])
      }
    }
  }

  /// Every unknown segment's cluster, offset and fingerprint, oldest first: what the clusters are rebuilt from at
  /// start.
  public func unknownFingerprints() throws -> [(cluster: Int64, clusterOffsetSeconds: Double, fingerprint: String)] {
    try database.query(
      "SELECT cluster, cluster_offset_ms, fingerprint FROM unknown_segments ORDER BY start_ms, channel_id"
    ).map { row in
      (try row.int64(0), Double(try row.int64(1)) / 1000, try row.string(2))
    }
  }
}
