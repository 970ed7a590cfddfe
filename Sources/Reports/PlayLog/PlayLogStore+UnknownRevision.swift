import Foundation

/// Unknown segments revised after they were logged (`UnknownSegmentRevision`): a cluster split in two.
extension PlayLogStore {
  /// Applies a revision in one transaction. Nothing changes when the play log lacks the segment, or when a segment
  /// of its cluster has been promoted (a catalog item is never split). Applying it again changes nothing more.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  public func revise(_ revision: UnknownSegmentRevision) throws {
    try database.transaction {
      guard
        let row = try database.firstRow(
          """
          SELECT u.id, u.channel_id, u.end_ms, u.music_confidence, u.cluster, u.clip_path, u.clip_start_ms,
            u.clip_end_ms
          FROM unknown_segments AS u JOIN channels AS c ON c.id = u.channel_id
          WHERE c.name = ? AND u.start_ms = ?
          """, [.text(revision.channel), .date(revision.start)])
      else { return }
      let id = try row.int64(0)
      let channelRowID = try row.int64(1)
      let promoted = try database.firstRow(
        "SELECT 1 FROM unknown_segments WHERE cluster = ? AND play_id IS NOT NULL LIMIT 1", [.integer(try row.int64(4))]
      )
      guard promoted == nil else { return }
      let end = try row.date(2)
      let cut = revision.tail.map { $0.start < end && $0.start > revision.start } ?? false
      try database.run(
        "UPDATE unknown_segments SET cluster = ?, cluster_offset_ms = ?, fingerprint = ?, end_ms = ? WHERE id = ?",
        [
          .integer(revision.cluster), .integer(Date.milliseconds(fromSeconds: revision.clusterOffsetSeconds)),
          .text(revision.fingerprint), .date(cut ? revision.tail!.start : end), .integer(id),
        ])
      guard cut, let tail = revision.tail else { return }
      // Both parts keep the clip, with the span of air it holds (a clip logged before migration 009_clips has none:
      // it held its segment).
      let hasClip = row[5] != .null
      let clipStart: SQLiteValue = hasClip && row[6] == .null ? .date(revision.start) : row[6]
      let clipEnd: SQLiteValue = hasClip && row[7] == .null ? .date(end) : row[7]
      try database.run(
        "UPDATE unknown_segments SET clip_start_ms = ?, clip_end_ms = ? WHERE id = ?",
        [clipStart, clipEnd, .integer(id)])
      try database.run(
        "UPDATE air_stretches SET end_ms = ? WHERE channel_id = ? AND start_ms = ?",
        [.date(tail.start), .integer(channelRowID), .date(revision.start)])
      try database.run(
        """
        INSERT INTO air_stretches(channel_id, start_ms, end_ms, label, item_key, music_confidence)
        VALUES(?, ?, ?, 'unknown-music', NULL, ?) ON CONFLICT(channel_id, start_ms) DO NOTHING
        """, [.integer(channelRowID), .date(tail.start), .date(end), row[3]])
      try database.run(
        """
        INSERT INTO unknown_segments(
          channel_id, start_ms, end_ms, music_confidence, cluster, cluster_offset_ms, fingerprint, clip_path,
          clip_start_ms, clip_end_ms)
        VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(channel_id, start_ms) DO NOTHING
        """,
        [
          .integer(channelRowID), .date(tail.start), .date(end), row[3], .integer(tail.cluster),
          .integer(Date.milliseconds(fromSeconds: tail.clusterOffsetSeconds)), .text(tail.fingerprint), row[5],
          clipStart, clipEnd,
        ])
    }
  }

  /// Every unknown segment as the clusters are rebuilt from it, oldest first.
  public func unknownReferences() throws -> [UnknownReferenceRow] {
    try database.query(
      """
      SELECT c.name, u.start_ms, u.cluster, u.cluster_offset_ms, u.fingerprint,
        EXISTS(SELECT 1 FROM unknown_segments AS p WHERE p.cluster = u.cluster AND p.play_id IS NOT NULL)
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
