import Foundation

/// Promoting a cluster of unknown music (`Migrations.latePlays`): reading its segments, and writing each one's
/// `late` play once.
extension PlayLogStore {
  /// The unknown segments of `cluster`, by start, then channel, each promoted one with its play's item; empty when
  /// the play log has no such cluster.
  public func unknownSegments(cluster: Int64) throws -> [UnknownSegment] {
    try database.query(
      """
      SELECT u.id, c.name, u.start_ms, u.end_ms, u.music_confidence, u.cluster, u.cluster_offset_ms, u.clip_path,
        u.play_id, i.item_key, u.clip_start_ms
      FROM unknown_segments AS u JOIN channels AS c ON c.id = u.channel_id
        LEFT JOIN plays AS p ON p.id = u.play_id LEFT JOIN catalog_items AS i ON i.id = p.item_id
      WHERE u.cluster = ? ORDER BY u.start_ms, c.name
      """, [.integer(cluster)]
    ).map { row in
      UnknownSegment(
        id: try row.int64(0), channel: try row.string(1), start: try row.date(2), end: try row.date(3),
        musicConfidence: try row.double(4), cluster: try row.int64(5),
        clusterOffsetSeconds: Double(try row.int64(6)) / 1000,
        clipPath: row.values[7] == .null ? nil : try row.string(7), playID: try row.optionalInt64(8),
        promotedItemKey: row.values[9] == .null ? nil : try row.string(9), clipStart: try row.optionalDate(10))
    }
  }

  /// Records each segment's play (status `late`, identified at `identifiedAt`) and links the segment to it, all in
  /// one transaction; a segment that already has its play (an earlier promotion) is skipped.
  /// - Returns: the ids of the plays recorded, in order.
  /// - Throws: ``PlayLogError/invalidPlay(reason:path:)`` for a play that is not `late` or is refused as
  ///   ``record(_:)`` refuses one; ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func recordLatePlays(_ plays: [LatePlay], identifiedAt: Date) throws -> [Int64] {
    let encoded = try validateLatePlays(plays)
    return try database.transaction {
      var ids: [Int64] = []
      for (late, attributesJSON) in zip(plays, encoded) {
        let linked = try database.firstRow(
          "SELECT play_id FROM unknown_segments WHERE id = ?", [.integer(late.segmentID)])
        guard let linked, try linked.optionalInt64(0) == nil else { continue }
        let id = try insert(late.play, attributesJSON: attributesJSON)
        try database.run(
          "UPDATE plays SET identified_at_ms = ? WHERE id = ?", [.date(identifiedAt), .integer(id)])
        try database.run(
          "UPDATE unknown_segments SET play_id = ? WHERE id = ?", [.integer(id), .integer(late.segmentID)])
        ids.append(id)
      }
      return ids
    }
  }
}
