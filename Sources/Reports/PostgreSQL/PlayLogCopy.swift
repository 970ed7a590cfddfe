import CSQLite
import Foundation

/// Moves a whole play log between SQLite and PostgreSQL, table by table in id order, keeping every row's id:
/// `db copy` (an SQLite play log into PostgreSQL) and the reports' read of a PostgreSQL play log (into a temporary
/// SQLite file that the one report implementation reads, see the README's "PostgreSQL" section).
///
/// Resumable: each batch of ``batchRows`` rows is one transaction in the target, and a copy started again goes on
/// after the last id the target has, once the rows already there are found to be the source's rows with the same
/// ids (``PlayLogCopyTargetError`` otherwise, before anything is written: rows of another play log there would take
/// the copied rows' references). ``verify(sqlite:postgreSQL:)`` compares the two sides' row counts and a checksum of
/// every row.
///
/// Thread: the caller's; the connections are used by it only.
package enum PlayLogCopy {
  /// Rows per batch (one transaction in the target).
  static let batchRows = 10_000

  /// What a copy moved, per table.
  package struct Summary: Sendable, Equatable {
    /// Rows copied in this run (rows already in the target are not counted).
    package var copiedRows: [String: Int] = [:]
    /// Rows in each table of the source, and their checksum (FNV-1a 64 of ``PlayLogTable/checksumText(_:)``).
    package var sourceRows: [String: Int] = [:]
    package var sourceChecksums: [String: UInt64] = [:]
    package var targetRows: [String: Int] = [:]
    package var targetChecksums: [String: UInt64] = [:]

    /// True when every table has the same rows on both sides.
    package var isVerified: Bool { sourceRows == targetRows && sourceChecksums == targetChecksums }
  }

  /// Copies the SQLite play log at `sqlitePath` into the PostgreSQL play log at `url` (creating its tables), then
  /// verifies it. `progress` is told each table's rows copied so far.
  package static func copy(
    sqlite sqlitePath: String, toPostgreSQL url: String, passwordFile: String? = nil,
    progress: (String, Int) -> Void = { _, _ in }
  ) throws -> Summary {
    let source = try PlayLogReader(path: sqlitePath)
    let connection = try PostgreSQLConnection(url: url, passwordFile: passwordFile)
    try Migrations.playLog.apply(to: connection)
    try requireEarlierCopy(of: source.database, sourcePath: sqlitePath, in: connection)
    var summary = Summary()
    for table in PlayLogTable.evidence {
      var last = try connection.query("SELECT coalesce(max(id), 0) FROM \(table.name)")[0].int64(0)
      var copied = 0
      while true {
        let rows = try table.rows(in: source.database, afterID: last, limit: batchRows)
        guard let lastRow = rows.last, case .integer(let lastID) = lastRow[0] else { break }
        try connection.transaction { try table.insert(rows, into: connection) }
        copied += rows.count
        last = lastID
        progress(table.name, copied)
      }
      summary.copiedRows[table.name] = copied
      // Rows added with their ids leave the identity behind: new rows (a node's plays) go on after the copied ones.
      try connection.query(
        "SELECT setval(pg_get_serial_sequence('\(table.name)', 'id'), max(id)) FROM \(table.name) HAVING count(*) > 0")
    }
    try verify(source: source.database, target: connection, into: &summary)
    return summary
  }

  /// Copies the PostgreSQL play log at `url` into a new SQLite play log at `sqlitePath`, for the reports: every
  /// channel and catalog item, and the plays, events and scheduled spots whose time is in `span` (all without it)
  /// of `channel` (all channels' without it); with `tables`, only the tables named there (the others are left
  /// empty: a report reads only some, and a whole year's traffic schedule, for one, is a quarter of the rows).
  ///
  /// Each table comes as one binary `COPY … TO STDOUT` stream in one snapshot of the server, each row's values bound
  /// from the stream's bytes to one prepared insert (no value becomes a Swift string or array on the way), all in
  /// one transaction a table. The file is a report's scratch copy, so it is not synced (`synchronous=OFF`: a crash
  /// loses only the report), and its secondary indexes are dropped while the rows go in and built again, with the
  /// same SQL, once they are all there: one sort each instead of millions of index updates.
  package static func copy(
    postgreSQL url: String, passwordFile: String? = nil, toSQLite sqlitePath: String, span: Range<Int64>? = nil,
    channel: String? = nil, tables: Set<String>? = nil
  ) throws {
    let connection = try PostgreSQLConnection(url: url, passwordFile: passwordFile)
    try Migrations.playLog.requirePlayLog(in: connection)
    let target = try PlayLogStore(path: sqlitePath)
    defer { try? target.close() }
    let database = target.database
    // A bulk load: no journal (every page would be written twice, to the WAL and back), no sync, and a page cache
    // that holds the index builds' sorts. No CHECK or foreign key is checked: the server checked the same ones when
    // the rows were written, and a CHECK with a list (`status IN (…)`) builds a temporary table on every insert,
    // which took two thirds of the load. WAL and the checks again at the end, for the reader.
    try database.execute(
      """
      PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-\(bulkCacheKilobytes);
      PRAGMA ignore_check_constraints=ON; PRAGMA foreign_keys=OFF
      """)
    let indexes = try database.query(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
    ).map { (name: try $0.string(0), sql: try $0.string(1)) }
    try database.transaction { for index in indexes { try database.run("DROP INDEX \(index.name)") } }
    // The whole read is one snapshot: plays written while it runs are not half in it.
    try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    defer { try? connection.execute("COMMIT") }
    let channelID = try channel.map {
      // A channel the log does not have: no row has id 0.
      try connection.query("SELECT id FROM channels WHERE name = $1", [.text($0)]).first?.int64(0) ?? 0
    }
    for table in PlayLogTable.all where tables?.contains(table.name) ?? true {
      var parser = BinaryCopyParser(fieldCount: table.columns.count, source: table.name, url: connection.url)
      try database.transaction {
        try database.withUnboundStatement(table.insertStatement) { insert in
          try connection.copyOut(table.copyStatement(span: span, channelID: channelID)) { message in
            if try table.bind(copyRow: message, to: insert, parser: &parser) { try insert.runOnce() }
          }
        }
      }
    }
    try database.transaction { for index in indexes { try database.run(index.sql) } }
    try database.execute("PRAGMA ignore_check_constraints=OFF; PRAGMA foreign_keys=ON")
    guard try database.query("PRAGMA journal_mode=WAL").first?.string(0) == "wal" else {
      throw SQLiteError(
        .run, code: SQLITE_ERROR, message: "the report's copy did not go back to WAL mode", path: sqlitePath,
        databaseName: "play log")
    }
  }

  /// The page cache of the reports' copy while it is loaded, in kilobytes: the index builds sort in it rather than
  /// in temporary files (SQLite's default is 2 MB; a year of 50 channels' plays index is about 200 MB).
  static let bulkCacheKilobytes = 262_144

  /// Refuses a target whose rows are not the source's rows with the same ids, table by table: a copy goes on after
  /// the target's last id, so only a target that an earlier copy of this source filled may hold rows.
  /// - Throws: ``PlayLogCopyTargetError`` naming the first table that differs.
  private static func requireEarlierCopy(
    of source: SQLiteDatabase, sourcePath: String, in target: PostgreSQLConnection
  ) throws {
    for table in PlayLogTable.evidence {
      let lastID = try target.query("SELECT coalesce(max(id), 0) FROM \(table.name)")[0].int64(0)
      guard lastID > 0 else { continue }
      let (targetRows, targetChecksum) = try digest { try table.rows(in: target, afterID: $0, limit: batchRows) }
      let (sourceRows, sourceChecksum) = try digest { after in
        try table.rows(in: source, afterID: after, limit: batchRows).filter {
          guard case .integer(let id) = $0[0] else { return false }
          return id <= lastID
        }
      }
      guard targetRows == sourceRows && targetChecksum == sourceChecksum else {
        throw PlayLogCopyTargetError(
          table: table.name, targetRows: targetRows, sourceRows: sourceRows, targetLastID: lastID, source: sourcePath,
          target: target.url)
      }
    }
  }

  /// Counts and checksums every table on both sides.
  private static func verify(source: SQLiteDatabase, target: PostgreSQLConnection, into summary: inout Summary) throws {
    for table in PlayLogTable.evidence {
      let (sourceRows, sourceChecksum) = try digest { try table.rows(in: source, afterID: $0, limit: batchRows) }
      let (targetRows, targetChecksum) = try digest { try table.rows(in: target, afterID: $0, limit: batchRows) }
      summary.sourceRows[table.name] = sourceRows
      summary.sourceChecksums[table.name] = sourceChecksum
      summary.targetRows[table.name] = targetRows
      summary.targetChecksums[table.name] = targetChecksum
    }
  }

  /// The number of rows and their checksum, reading batch by batch with `rows(afterID)`.
  private static func digest(_ rows: (Int64) throws -> [[SQLiteValue]]) throws -> (Int, UInt64) {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var count = 0
    var last: Int64 = 0
    while true {
      let batch = try rows(last)
      guard let lastRow = batch.last, case .integer(let lastID) = lastRow[0] else { break }
      for row in batch {
        for byte in PlayLogTable.checksumText(row).utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
      }
      count += batch.count
      last = lastID
    }
    return (count, hash)
  }
}
