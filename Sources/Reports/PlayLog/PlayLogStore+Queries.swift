import CSQLite
import Foundation

/// Reading plays back, for reports.
extension PlayLogStore {
  /// The recorded plays, in air order: by start, then channel name, then id (the order they were recorded).
  /// - Parameters:
  ///   - channel: only this channel's plays; all channels when nil.
  ///   - from: only plays that start at or after this time.
  ///   - to: only plays that start before this time (half-open: [from, to), so consecutive periods never count a
  ///     play twice).
  /// - Throws: ``SQLiteError`` when the file cannot be read; ``PlayLogError/unreadableAttributes(itemKey:path:)``
  ///   for a damaged catalog mirror.
  public func plays(channel: String? = nil, from: Date? = nil, to: Date? = nil) throws -> [PlayRecord] {
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    if let channel {
      conditions.append("c.name = ?")
      values.append(.text(channel))
    }
    if let from {
      conditions.append("p.start_ms >= ?")
      values.append(.date(from))
    }
    if let to {
      conditions.append("p.start_ms < ?")
      values.append(.date(to))
    }
    // One SQL text per combination of filters: each is prepared once and cached, and each can use an index.
    let sql = """
      SELECT p.id, c.name, i.id, i.item_key, i.title, i.artist, i.album, i.isrc, i.label, i.kind, i.attributes_json,
        i.duration_ms, p.start_ms, p.end_ms, p.ref_offset_ms, p.speed, p.confidence, p.detected_at_ms, p.status
      FROM plays AS p
        JOIN channels AS c ON c.id = p.channel_id
        JOIN catalog_items AS i ON i.id = p.item_id
      \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
      ORDER BY p.start_ms, c.name, p.id
      """
    var attributesByItem: [Int64: [String: String]] = [:]
    var plays: [PlayRecord] = []
    try database.forEachRow(sql, values) { row in
      let itemID = try row.int64(2)
      let itemKey = try row.string(3)
      let attributes: [String: String]
      if let known = attributesByItem[itemID] {
        attributes = known
      } else {
        guard let decoded = AttributesJSON.decode(try row.string(10)) else {
          throw PlayLogError.unreadableAttributes(itemKey: itemKey, path: path)
        }
        attributes = decoded
        attributesByItem[itemID] = decoded
      }
      let statusText = try row.string(18)
      guard let status = PlayStatus(rawValue: statusText) else {
        throw SQLiteError(
          .read, code: SQLITE_MISMATCH, message: "play \(try row.int64(0)) has the unknown status \"\(statusText)\"",
          sql: row.sql, path: path, databaseName: database.name,
          advice: "The file was changed by another program or is damaged: restore it from a backup.")
      }
      plays.append(
        PlayRecord(
          id: try row.int64(0), channel: try row.string(1), itemKey: itemKey, title: try row.string(4),
          artist: try row.string(5), album: try row.string(6), isrc: try row.string(7), label: try row.string(8),
          kind: try row.itemKind(9), attributes: attributes,
          itemDurationSeconds: try row.optionalInt64(11).map { Double($0) / 1000 }, start: try row.date(12),
          end: try row.date(13), refOffsetSeconds: Double(try row.int64(14)) / 1000, speed: try row.double(15),
          confidence: try row.double(16), detectedAt: try row.date(17), status: status))
    }
    return plays
  }
}
