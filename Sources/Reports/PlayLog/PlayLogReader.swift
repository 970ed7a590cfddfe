import CSQLite
import Common
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
    if let problem = FileReadProblem.of(path), problem.isNotAFile {
      throw SQLiteError(
        .open, code: SQLITE_NOTADB, message: "\(problem), not a play log", path: path, databaseName: "play log",
        advice: "Name the play log file (--db, or databasePath in the configuration).")
    }
    database = try SQLiteDatabase(path: path, name: "play log", readOnly: true)
    try checkSchema()
  }

  /// Closes the file.
  public func close() throws { try database.close() }

  /// Refuses a file that is not a play log, or one written by a newer version.
  private func checkSchema() throws {
    let applied = try database.hasTable("schema_migrations") ? try Migrations.playLog.appliedIDs(in: database) : []
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
    // Many items share their attributes (the same flags, language or advertiser): decode each text once.
    var decoded: [String: [String: String]] = [:]
    try database.forEachRow(
      """
      SELECT id, item_key, title, artist, album, isrc, label, kind, attributes_json, duration_ms FROM catalog_items
      """
    ) { row in
      let key = try row.string(1)
      let json = try row.string(8)
      guard let attributes = decoded[json] ?? AttributesJSON.decode(json) else {
        throw PlayLogError.unreadableAttributes(itemKey: key, path: path)
      }
      decoded[json] = attributes
      let id = try row.int64(0)
      items[id] = CatalogItem(
        id: id, key: key, title: try row.string(2), artist: try row.string(3), album: try row.string(4),
        isrc: try row.string(5), label: try row.string(6), kind: try row.itemKind(7), attributes: attributes,
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
  /// - Parameter itemKind: only plays of items of this kind (`ad`); all when nil.
  package func forEachPlay(
    channelID: Int64?, itemKind: ItemKind? = nil, fromMilliseconds: Int64, toMilliseconds: Int64,
    _ body: (PlaySpan) throws -> Void
  ) throws {
    // The start index gives the rows by start, then id, with no sort; plays that share a start time (on different
    // channels) are put in channel-name order here.
    let sql = """
      SELECT id, channel_id, item_id, start_ms, end_ms, ref_offset_ms, speed, confidence, detected_at_ms, status
      FROM plays
      WHERE \(channelID == nil ? "?3 IS NULL" : "channel_id = ?3") AND start_ms >= ?1 AND start_ms < ?2
        \(itemKind == nil ? "AND ?5 IS NULL" : "AND item_id IN (SELECT id FROM catalog_items WHERE kind = ?5)")
      ORDER BY start_ms, id LIMIT ?4
      """
    var from = fromMilliseconds
    var chunk: [PlaySpan] = []
    chunk.reserveCapacity(chunkRows)
    func values(_ from: Int64, _ to: Int64, limit: Int64) -> [SQLiteValue] {
      [.integer(from), .integer(to), .integer(channelID), .integer(limit), .text(itemKind?.rawValue)]
    }
    while from < toMilliseconds {
      chunk.removeAll(keepingCapacity: true)
      try read(sql, values(from, toMilliseconds, limit: Int64(chunkRows)), into: &chunk)
      guard let last = chunk.last else { return }
      var end = chunk.count
      if chunk.count == chunkRows {
        // Keep only whole start times; the next chunk starts at the last one. When one start time fills the whole
        // chunk, read all of its plays at once.
        while end > 0 && chunk[end - 1].startMilliseconds == last.startMilliseconds { end -= 1 }
        if end == 0 {
          chunk.removeAll(keepingCapacity: true)
          try read(
            sql, values(last.startMilliseconds, last.startMilliseconds + 1, limit: Int64.max), into: &chunk)
          end = chunk.count
          from = last.startMilliseconds + 1
        } else {
          from = last.startMilliseconds
        }
      } else {
        from = toMilliseconds
      }
      if channelID == nil { try sortTies(&chunk, count: end) }
      for play in chunk[..<end] { try body(play) }
    }
  }

  /// Puts plays that share a start time in channel-name order (they are in id order).
  private func sortTies(_ chunk: inout [PlaySpan], count: Int) throws {
    var index = 0
    while index < count {
      var next = index + 1
      while next < count && chunk[next].startMilliseconds == chunk[index].startMilliseconds { next += 1 }
      if next - index > 1 {
        let names = try chunk[index..<next].map { try channelName($0.channelID) }
        let sorted = zip(names, chunk[index..<next]).enumerated().sorted { a, b in
          a.element.0 != b.element.0 ? a.element.0 < b.element.0 : a.offset < b.offset
        }
        chunk.replaceSubrange(index..<next, with: sorted.map(\.element.1))
      }
      index = next
    }
  }

  /// The longest span one ``forEachStart(channelID:fromMilliseconds:toMilliseconds:_:)`` query covers: a longer
  /// span is read window by window, each window one short read transaction.
  static let windowMilliseconds: Int64 = 7 * 86_400_000

  /// Hands `body` the item, start and end of every play of `channelID` (all channels when nil) that starts in
  /// `[from, to)`, by start time, a week at a time (one statement, so one read transaction, per week). With a
  /// channel, SQLite reads only the channel index (`plays_by_channel_start_item` holds all three values). For
  /// reports that add plays up; `body` must be quick, as it runs inside the read.
  package func forEachStart(
    channelID: Int64?, fromMilliseconds: Int64, toMilliseconds: Int64,
    _ body: (_ itemID: Int64, _ startMilliseconds: Int64, _ endMilliseconds: Int64) throws -> Void
  ) throws {
    let sql = """
      SELECT item_id, start_ms, end_ms FROM plays
      WHERE \(channelID == nil ? "?3 IS NULL" : "channel_id = ?3") AND start_ms >= ?1 AND start_ms < ?2
      ORDER BY start_ms
      """
    var from = fromMilliseconds
    while from < toMilliseconds {
      let to = min(toMilliseconds, from + Self.windowMilliseconds)
      try database.withStatement(sql, [.integer(from), .integer(to), .integer(channelID)]) { statement in
        while try statement.step() {
          try body(statement.int64(0), statement.int64(1), statement.int64(2))
        }
      }
      from = to
    }
  }

  /// Adds up, per item, the plays of `channelID` (all channels when nil) that start in `[from, to)`, into
  /// `tallies`.
  package func addTallies(
    channelID: Int64?, fromMilliseconds: Int64, toMilliseconds: Int64, into tallies: inout [Int64: ItemTally]
  ) throws {
    try forEachStart(channelID: channelID, fromMilliseconds: fromMilliseconds, toMilliseconds: toMilliseconds) {
      item, start, end in
      tallies[item, default: ItemTally()].add(start: start, end: end)
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
        case UInt8(ascii: "l"): status = .late
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
