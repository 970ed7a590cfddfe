import CSQLite
import Foundation

/// Reads the play log for reports, while the monitor goes on writing it.
///
/// It has its own connection, opened read-only (`SQLITE_OPEN_READONLY`): it can never take the write lock. The
/// file is in WAL mode, so a read never waits for the writer and the writer never waits for a read. Scans run in
/// chunks of ``chunkRows`` plays, each chunk one short read transaction (one statement, stepped to its end, then
/// reset) and handed to the caller only after the statement is reset, so no read transaction stays open while a
/// report formats or writes its rows: the writer's checkpoints are never held back by a long report either.
/// A chunk ends on a whole start time and the next one starts there, so a play is read exactly once even while new
/// ones are added; each chunk sees the log as it is when the chunk is read.
///
/// Thread: one thread at a time; it is not Sendable. Open one reader per thread.
public final class PlayLogReader {
  /// The file, as given.
  public let path: String
  let database: SQLiteDatabase
  /// Plays read per read transaction.
  let chunkRows: Int
  private var itemCache: [Int64: CatalogItem] = [:]
  private var channelCache: [Int64: String] = [:]

  /// Opens the play log at `path` for reading.
  /// - Parameter chunkRows: plays read per read transaction (tests make it small).
  /// - Throws: ``SQLiteError`` when the file is missing or unreadable or not a play log; ``MigrationError`` when a
  ///   newer version of broadcast-monitor wrote it.
  public init(path: String, chunkRows: Int = 10_000) throws {
    self.path = path
    self.chunkRows = max(chunkRows, 1)
    guard path == ":memory:" || FileManager.default.fileExists(atPath: path) else {
      throw SQLiteError(
        .open, code: SQLITE_CANTOPEN, message: "no such file", path: path, databaseName: "play log",
        advice: "Check the path: the play log is the file named by --db or databasePath in the configuration.")
    }
    database = try SQLiteDatabase(path: path, name: "play log", readOnly: true)
    try checkSchema()
  }

  /// Closes the file.
  public func close() throws { try database.close() }

  /// Refuses a file that is not a play log, or one written by a newer version.
  private func checkSchema() throws {
    let table = try database.firstRow(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    let applied = table == nil ? [] : try Migrations.playLog.appliedIDs(in: database)
    let known = Migrations.playLog.list.map(\.id)
    guard applied.contains(known[0]) else {
      throw SQLiteError(
        .open, code: SQLITE_NOTADB, message: "the file has no play log tables", path: path,
        databaseName: "play log",
        advice: "Name the play log written by `broadcast-monitor run` or `scan --db` (databasePath).")
    }
    let unknown = applied.filter { !known.contains($0) }
    guard unknown.isEmpty else {
      throw MigrationError(path: path, databaseName: "play log", unknownIDs: unknown, knownIDs: known)
    }
  }

  /// Every channel, by row id.
  package func channels() throws -> [Int64: String] {
    var channels: [Int64: String] = [:]
    try database.forEachRow("SELECT id, name FROM channels") { row in
      channels[try row.int64(0)] = try row.string(1)
    }
    channelCache = channels
    return channels
  }

  /// The channel with row id `id` (read again from the file when it was added since the last look).
  package func channelName(_ id: Int64) throws -> String {
    if let name = channelCache[id] { return name }
    guard let name = try channels()[id] else {
      throw SQLiteError(
        .read, code: SQLITE_CORRUPT, message: "a play names channel \(id), which does not exist", path: path,
        databaseName: "play log")
    }
    return name
  }

  /// Every catalog item of the mirror, by row id.
  /// - Throws: ``PlayLogError/unreadableAttributes(itemKey:path:)`` for damaged attributes.
  package func items() throws -> [Int64: CatalogItem] {
    var items: [Int64: CatalogItem] = [:]
    try database.forEachRow(
      """
      SELECT id, item_key, title, artist, album, isrc, label, kind, attributes_json, duration_ms FROM catalog_items
      """
    ) { row in
      let key = try row.string(1)
      guard let attributes = AttributesJSON.decode(try row.string(8)) else {
        throw PlayLogError.unreadableAttributes(itemKey: key, path: path)
      }
      let id = try row.int64(0)
      items[id] = CatalogItem(
        id: id, key: key, title: try row.string(2), artist: try row.string(3), album: try row.string(4),
        isrc: try row.string(5), label: try row.string(6), kind: try row.string(7), attributes: attributes,
        durationMilliseconds: try row.optionalInt64(9))
    }
    itemCache = items
    return items
  }

  /// The catalog item with row id `id` (read again from the file when it was added since the last look).
  package func item(_ id: Int64) throws -> CatalogItem {
    if let item = itemCache[id] { return item }
    guard let item = try items()[id] else {
      throw SQLiteError(
        .read, code: SQLITE_CORRUPT, message: "a play names catalog item \(id), which does not exist", path: path,
        databaseName: "play log")
    }
    return item
  }

  /// The first and last start time of the plays of `channelID` (all channels when nil); nil when there are none.
  package func startRange(channelID: Int64?) throws -> (first: Int64, last: Int64)? {
    let row: SQLiteRow?
    if let channelID {
      row = try database.firstRow(
        "SELECT min(start_ms), max(start_ms) FROM plays WHERE channel_id = ?", [.integer(channelID)])
    } else {
      row = try database.firstRow("SELECT min(start_ms), max(start_ms) FROM plays")
    }
    guard let row, let first = try row.optionalInt64(0), let last = try row.optionalInt64(1) else { return nil }
    return (first, last)
  }

  /// Hands `body` every play of `channelID` (all channels when nil) that starts in `[from, to)`, in air order (by
  /// start, then channel name, then id), a chunk at a time as the type's comment explains.
  package func forEachPlay(
    channelID: Int64?, fromMilliseconds: Int64, toMilliseconds: Int64, _ body: (PlaySpan) throws -> Void
  ) throws {
    let columns = """
      SELECT p.id, p.channel_id, p.item_id, p.start_ms, p.end_ms, p.ref_offset_ms, p.speed, p.confidence,
        p.detected_at_ms, p.status
      """
    let oneChannel = """
      \(columns) FROM plays AS p
      WHERE p.channel_id = ?3 AND p.start_ms >= ?1 AND p.start_ms < ?2
      ORDER BY p.start_ms, p.id LIMIT ?4
      """
    let allChannels = """
      \(columns) FROM plays AS p JOIN channels AS c ON c.id = p.channel_id
      WHERE p.start_ms >= ?1 AND p.start_ms < ?2 AND ?3 IS NULL
      ORDER BY p.start_ms, c.name, p.id LIMIT ?4
      """
    let sql = channelID == nil ? allChannels : oneChannel
    var from = fromMilliseconds
    var chunk: [PlaySpan] = []
    chunk.reserveCapacity(chunkRows)
    while from < toMilliseconds {
      chunk.removeAll(keepingCapacity: true)
      let values: [SQLiteValue] = [
        .integer(from), .integer(toMilliseconds), .integer(channelID), .integer(Int64(chunkRows)),
      ]
      try read(sql, values, into: &chunk)
      guard let last = chunk.last else { return }
      if chunk.count < chunkRows {
        for play in chunk { try body(play) }
        return
      }
      // Keep only whole start times; the next chunk starts at the last one. When one start time fills the whole
      // chunk, read all of its plays at once.
      var end = chunk.count
      while end > 0 && chunk[end - 1].startMilliseconds == last.startMilliseconds { end -= 1 }
      if end == 0 {
        chunk.removeAll(keepingCapacity: true)
        try read(
          sql,
          [
            .integer(last.startMilliseconds), .integer(last.startMilliseconds + 1), .integer(channelID),
            .integer(Int64.max),
          ],
          into: &chunk)
        end = chunk.count
        from = last.startMilliseconds + 1
      } else {
        from = last.startMilliseconds
      }
      for play in chunk[..<end] { try body(play) }
    }
  }

  /// Runs one chunk's query to its end and appends its plays to `chunk`; the statement is reset when it returns.
  private func read(_ sql: String, _ values: [SQLiteValue], into chunk: inout [PlaySpan]) throws {
    try database.withStatement(sql, values) { statement in
      while try statement.step() {
        let status: PlayStatus
        switch statement.firstByte(9) {
        case UInt8(ascii: "c"): status = .closed
        case UInt8(ascii: "o"): status = .open
        default: status = .recovered
        }
        chunk.append(
          PlaySpan(
            id: statement.int64(0), channelID: statement.int64(1), itemID: statement.int64(2),
            startMilliseconds: statement.int64(3), endMilliseconds: statement.int64(4),
            refOffsetMilliseconds: statement.int64(5), speed: statement.double(6), confidence: statement.double(7),
            detectedAtMilliseconds: statement.int64(8), status: status))
      }
    }
  }
}

@available(*, unavailable, message: "a PlayLogReader is used by one thread at a time: open one per thread")
extension PlayLogReader: Sendable {}
