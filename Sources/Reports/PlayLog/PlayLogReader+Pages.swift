import Foundation

/// Pages of plays and events, newest first, for the HTTP API: each page one short read statement, the next one
/// named by a cursor (the start and id of the last row of the page), so that paging is stable while plays are added.
extension PlayLogReader {
  /// Where a page starts: after the row with this start and id, in the order newest start first, then highest id.
  package struct PageCursor: Sendable, Equatable {
    package var startMilliseconds: Int64
    package var id: Int64

    package init(startMilliseconds: Int64, id: Int64) {
      self.startMilliseconds = startMilliseconds
      self.id = id
    }
  }

  /// What a page is limited to: a channel, starts in [from, to), and the rows after `cursor`.
  package struct PageFilter: Sendable, Equatable {
    package var channel: String?
    package var from: Date?
    package var to: Date?
    package var cursor: PageCursor?
    /// Rows at most, at least 1.
    package var limit: Int

    package init(channel: String? = nil, from: Date? = nil, to: Date? = nil, cursor: PageCursor? = nil, limit: Int) {
      self.channel = channel
      self.from = from
      self.to = to
      self.cursor = cursor
      self.limit = limit
    }
  }

  /// One play as the API lists it.
  package struct PlayRow: Sendable, Equatable {
    package var id: Int64
    package var channel: String
    package var title: String
    package var artist: String
    package var kind: String
    package var isrc: String
    package var start: Date
    package var end: Date
    package var status: String
    package var refOffsetSeconds: Double
    package var speed: Double
    package var confidence: Double
    /// When a `late` play was identified (its cluster of unknown music added to the catalog); nil for the others.
    package var identifiedAt: Date?
  }

  /// One row of the events table as the API lists it.
  package struct EventRow: Sendable, Equatable {
    package var id: Int64
    package var channel: String?
    package var kind: String
    package var start: Date
    package var end: Date?
    package var detail: String
  }

  /// Up to `filter.limit` plays, newest start first, and the cursor of the next page (nil on the last one). A play
  /// log not yet at `007_late_plays` (opened read-only since an older version wrote it) gives no `identifiedAt`.
  package func playsPage(_ filter: PageFilter) throws -> (rows: [PlayRow], next: PageCursor?) {
    let (conditions, values) = Self.conditions(filter, alias: "p")
    let sql = """
      SELECT p.id, c.name, i.title, i.artist, i.kind, i.isrc, p.start_ms, p.end_ms, p.status, p.ref_offset_ms, p.speed,
        p.confidence, \(try hasLatePlays() ? "p.identified_at_ms" : "NULL")
      FROM plays AS p
        JOIN channels AS c ON c.id = p.channel_id
        JOIN catalog_items AS i ON i.id = p.item_id
      \(conditions)
      ORDER BY p.start_ms DESC, p.id DESC
      LIMIT ?
      """
    var rows: [PlayRow] = []
    try database.forEachRow(sql, values + [.integer(Int64(filter.limit) + 1)]) { row in
      rows.append(
        PlayRow(
          id: try row.int64(0), channel: try row.string(1), title: try row.string(2), artist: try row.string(3),
          kind: try row.string(4), isrc: try row.string(5), start: try row.date(6), end: try row.date(7),
          status: try row.string(8), refOffsetSeconds: Double(try row.int64(9)) / 1000, speed: try row.double(10),
          confidence: try row.double(11), identifiedAt: try row.optionalDate(12)))
    }
    return Self.page(rows, limit: filter.limit) {
      PageCursor(startMilliseconds: $0.start.millisecondsSince1970, id: $0.id)
    }
  }

  /// Up to `filter.limit` events, newest start first, and the cursor of the next page (nil on the last one).
  package func eventsPage(_ filter: PageFilter) throws -> (rows: [EventRow], next: PageCursor?) {
    let (conditions, values) = Self.conditions(filter, alias: "e")
    let sql = """
      SELECT e.id, c.name, e.kind, e.start_ms, e.end_ms, e.detail
      FROM events AS e
        LEFT JOIN channels AS c ON c.id = e.channel_id
      \(conditions)
      ORDER BY e.start_ms DESC, e.id DESC
      LIMIT ?
      """
    var rows: [EventRow] = []
    try database.forEachRow(sql, values + [.integer(Int64(filter.limit) + 1)]) { row in
      rows.append(
        EventRow(
          id: try row.int64(0), channel: row.values[1] == .null ? nil : try row.string(1), kind: try row.string(2),
          start: try row.date(3), end: try row.optionalDate(4), detail: try row.string(5)))
    }
    return Self.page(rows, limit: filter.limit) {
      PageCursor(startMilliseconds: $0.start.millisecondsSince1970, id: $0.id)
    }
  }

  /// The WHERE clause of a page (one SQL text per combination of filters) and its values.
  private static func conditions(_ filter: PageFilter, alias: String) -> (String, [SQLiteValue]) {
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    if let channel = filter.channel {
      conditions.append("c.name = ?")
      values.append(.text(channel))
    }
    if let from = filter.from {
      conditions.append("\(alias).start_ms >= ?")
      values.append(.date(from))
    }
    if let to = filter.to {
      conditions.append("\(alias).start_ms < ?")
      values.append(.date(to))
    }
    if let cursor = filter.cursor {
      conditions.append("(\(alias).start_ms < ? OR (\(alias).start_ms = ? AND \(alias).id < ?))")
      values += [.integer(cursor.startMilliseconds), .integer(cursor.startMilliseconds), .integer(cursor.id)]
    }
    return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), values)
  }

  /// The first `limit` rows, and the cursor after the last of them when a further row was read.
  private static func page<Row>(_ rows: [Row], limit: Int, cursor: (Row) -> PageCursor) -> ([Row], PageCursor?) {
    guard rows.count > limit, let last = rows.prefix(limit).last else { return (rows, nil) }
    return (Array(rows.prefix(limit)), cursor(last))
  }
}
