import Foundation

/// Promoting a cluster of unknown music, as ``PlayLogStore``'s (see there).
extension PostgreSQLPlayLogStore {
  public func unknownSegments(cluster: Int64) throws -> [UnknownSegment] {
    try connection.query(
      """
      SELECT u.id, c.name, u.start_ms, u.end_ms, u.music_confidence, u.cluster, u.cluster_offset_ms, u.clip_path,
        u.play_id, i.item_key, u.clip_start_ms
      FROM unknown_segments AS u JOIN channels AS c ON c.id = u.channel_id
        LEFT JOIN plays AS p ON p.id = u.play_id LEFT JOIN catalog_items AS i ON i.id = p.item_id
      WHERE u.cluster = $1 ORDER BY u.start_ms, c.name
      """, [.integer(cluster)]
    ).map { row in
      UnknownSegment(
        id: try row.int64(0), channel: try row.string(1), start: try row.date(2), end: try row.date(3),
        musicConfidence: try row.double(4), cluster: try row.int64(5),
        clusterOffsetSeconds: Double(try row.int64(6)) / 1000, clipPath: row.optionalString(7),
        playID: try row.optionalInt64(8), promotedItemKey: row.optionalString(9),
        clipStart: try row.optionalInt64(10).map(Date.init(millisecondsSince1970:)))
    }
  }

  @discardableResult
  public func recordLatePlays(_ plays: [LatePlay], identifiedAt: Date) throws -> [Int64] {
    let encoded = try validateLatePlays(plays)
    return try connection.transaction {
      var ids: [Int64] = []
      for (late, attributesJSON) in zip(plays, encoded) {
        // FOR UPDATE: a promotion running at the same time waits here, then finds the segment linked.
        let linked = try connection.query(
          "SELECT play_id FROM unknown_segments WHERE id = $1 FOR UPDATE", [.integer(late.segmentID)])
        guard let row = linked.first, try row.optionalInt64(0) == nil else { continue }
        let id = try insert(late.play, attributesJSON: attributesJSON)
        try connection.query(
          "UPDATE plays SET identified_at_ms = $1 WHERE id = $2", [.date(identifiedAt), .integer(id)])
        try connection.query(
          "UPDATE unknown_segments SET play_id = $1 WHERE id = $2", [.integer(id), .integer(late.segmentID)])
        ids.append(id)
      }
      return ids
    }
  }
}
