import Foundation

/// Unknown segments revised after they were logged, in a PostgreSQL play log: the same rows, and the same
/// idempotent writes, as `PlayLogStore+UnknownRevision.swift` for SQLite.
extension PostgreSQLPlayLogStore {
  public func revise(_ revision: UnknownSegmentRevision) throws {
    try connection.transaction {
      guard
        let row = try connection.query(
          """
          SELECT u.id, u.channel_id, u.end_ms, u.music_confidence, u.cluster, u.clip_path, u.clip_start_ms,
            u.clip_end_ms
          FROM unknown_segments AS u JOIN channels AS c ON c.id = u.channel_id
          WHERE c.name = $1 AND u.start_ms = $2 FOR UPDATE OF u
          """, [.text(revision.channel), .date(revision.start)]
        ).first
      else { return }
      let id = try row.int64(0)
      let channelRowID = try row.int64(1)
      let promoted = try connection.query(
        "SELECT 1 FROM unknown_segments WHERE cluster = $1 AND play_id IS NOT NULL LIMIT 1",
        [.integer(try row.int64(4))])
      guard promoted.isEmpty else { return }
      let end = try row.date(2)
      let confidence = PostgreSQLValue.real(try row.double(3))
      // Both parts keep the clip, with the span of air it holds (a clip logged before migration 009_clips has none:
      // it held its segment).
      let clipPath = row.optionalString(5)
      let clipStart = try row.optionalInt64(6) ?? (clipPath == nil ? nil : revision.start.millisecondsSince1970)
      let clipEnd = try row.optionalInt64(7) ?? (clipPath == nil ? nil : end.millisecondsSince1970)
      let clip: [PostgreSQLValue] = [.text(clipPath), .integer(clipStart), .integer(clipEnd)]
      let cut = revision.tail.map { $0.start < end && $0.start > revision.start } ?? false
      try connection.query(
        "UPDATE unknown_segments SET cluster = $1, cluster_offset_ms = $2, fingerprint = $3, end_ms = $4 WHERE id = $5",
        [
          .integer(revision.cluster), .integer(Date.milliseconds(fromSeconds: revision.clusterOffsetSeconds)),
          .text(revision.fingerprint), .date(cut ? revision.tail!.start : end), .integer(id),
        ])
      guard cut, let tail = revision.tail else { return }
      try connection.query(
        "UPDATE unknown_segments SET clip_start_ms = $1, clip_end_ms = $2 WHERE id = $3",
        [.integer(clipStart), .integer(clipEnd), .integer(id)])
      try connection.query(
        "UPDATE air_stretches SET end_ms = $1 WHERE channel_id = $2 AND start_ms = $3",
        [.date(tail.start), .integer(channelRowID), .date(revision.start)])
      try connection.query(
        """
        INSERT INTO air_stretches(channel_id, start_ms, end_ms, label, item_key, music_confidence)
        VALUES($1, $2, $3, 'unknown-music', NULL, $4) ON CONFLICT(channel_id, start_ms) DO NOTHING
        """, [.integer(channelRowID), .date(tail.start), .date(end), confidence])
      try connection.query(
        """
        INSERT INTO unknown_segments(
          channel_id, start_ms, end_ms, music_confidence, cluster, cluster_offset_ms, fingerprint, clip_path,
          clip_start_ms, clip_end_ms)
        VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT(channel_id, start_ms) DO NOTHING
        """,
        [
          .integer(channelRowID), .date(tail.start), .date(end), confidence, .integer(tail.cluster),
          .integer(Date.milliseconds(fromSeconds: tail.clusterOffsetSeconds)), .text(tail.fingerprint),
        ] + clip)
    }
  }

  public func unknownReferences() throws -> [UnknownReferenceRow] {
    try connection.query(
      """
      SELECT c.name, u.start_ms, u.cluster, u.cluster_offset_ms, u.fingerprint,
        EXISTS(SELECT 1 FROM unknown_segments AS p WHERE p.cluster = u.cluster AND p.play_id IS NOT NULL)::int
      FROM unknown_segments AS u JOIN channels AS c ON c.id = u.channel_id ORDER BY u.start_ms, u.channel_id
      """
    ).map { row in
      UnknownReferenceRow(
        channel: try row.string(0), start: try row.date(1), cluster: try row.int64(2),
        clusterOffsetSeconds: Double(try row.int64(3)) / 1000, fingerprint: try row.string(4),
        promoted: try row.int64(5) != 0)
    }
  }
}
