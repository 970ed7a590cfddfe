import CSQLite

/// One compiled SQL statement (`sqlite3_stmt`), owned by the ``SQLiteDatabase`` that caches it.
///
/// Finalizes itself in `deinit`. Reuse goes through ``reset()``, which also clears the bindings.
///
/// Thread: the thread that uses its database; it is not Sendable. Do not keep one beyond the closure that
/// ``SQLiteDatabase`` hands it to: the database may finalize it.
final class PreparedStatement {
  /// The SQL text, exactly as prepared (the cache key).
  let sql: String
  /// The database file, for error messages.
  let path: String
  /// What the database is to the user, for error messages.
  let databaseName: String
  /// The connection. It stays valid while this statement lives: the database closes with `sqlite3_close_v2`.
  private let connection: OpaquePointer
  /// The statement; nil once finalized.
  private(set) var handle: OpaquePointer?
  /// The names of the result columns.
  let columnNames: [String]

  /// Compiles `sql`, which must be exactly one statement (trailing white space and comments are fine).
  init(sql: String, connection: OpaquePointer, path: String, databaseName: String) throws {
    self.sql = sql
    self.path = path
    self.databaseName = databaseName
    self.connection = connection
    var statement: OpaquePointer?
    var leftover = ""
    let code = sql.withCString { text -> Int32 in
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
      if let tail { leftover = String(cString: tail) }
      return code
    }
    guard code == SQLITE_OK, let statement else {
      throw SQLiteError(
        .prepare, code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql, path: path,
        databaseName: databaseName)
    }
    guard Self.isBlankOrComment(leftover) else {
      sqlite3_finalize(statement)
      throw SQLiteError(
        .prepare, code: SQLITE_MISUSE, message: "more than one statement in one prepared statement", sql: sql,
        path: path, databaseName: databaseName)
    }
    handle = statement
    columnNames = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
  }

  deinit {
    finalize()
  }

  /// The number of `?` parameters.
  var parameterCount: Int { handle.map { Int(sqlite3_bind_parameter_count($0)) } ?? 0 }

  /// Makes the statement ready to run again: resets it and clears its bindings.
  func reset() {
    guard let handle else { return }
    // sqlite3_reset repeats the error of the last step, which was already reported by step().
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Releases the statement. Further use throws `SQLITE_MISUSE`.
  func finalize() {
    guard let handle else { return }
    sqlite3_finalize(handle)
    self.handle = nil
  }

  /// Runs one step: true when a row is ready (read it with ``currentRow()``), false when done.
  func step() throws -> Bool {
    let statement = try liveHandle()
    let code = sqlite3_step(statement)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw error(.run, code: code)
    }
  }

  /// Runs a statement that returns no rows (an INSERT) with what is bound, then resets it (keeping the bindings,
  /// which the next run binds over).
  func runOnce() throws {
    let statement = try liveHandle()
    let code = sqlite3_step(statement)
    guard code == SQLITE_DONE else {
      let error = error(.run, code: code == SQLITE_ROW ? SQLITE_MISUSE : code)
      sqlite3_reset(statement)
      throw error
    }
    sqlite3_reset(statement)
  }

  /// Steps to the end, collecting every row.
  func rows() throws -> [SQLiteRow] {
    var rows: [SQLiteRow] = []
    while try step() {
      rows.append(try currentRow())
    }
    return rows
  }

  /// Copies the row the last ``step()`` stopped at.
  func currentRow() throws -> SQLiteRow {
    let statement = try liveHandle()
    let values = (0..<sqlite3_column_count(statement)).map { column -> SQLiteValue in
      switch sqlite3_column_type(statement, column) {
      case SQLITE_INTEGER:
        return .integer(sqlite3_column_int64(statement, column))
      case SQLITE_FLOAT:
        return .real(sqlite3_column_double(statement, column))
      case SQLITE_NULL:
        return .null
      default:
        // TEXT, and BLOB read as UTF-8 text (this program stores no BLOBs). Text first, then its length.
        guard let bytes = sqlite3_column_text(statement, column) else { return .text("") }
        let count = Int(sqlite3_column_bytes(statement, column))
        return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
      }
    }
    return SQLiteRow(values: values, columnNames: columnNames, sql: sql, path: path, databaseName: databaseName)
  }

  /// The statement, or an error when it was finalized.
  func liveHandle() throws -> OpaquePointer {
    guard let handle else {
      throw SQLiteError(
        .run, code: SQLITE_MISUSE, message: "the statement was finalized", sql: sql, path: path,
        databaseName: databaseName)
    }
    return handle
  }

  /// An error for `code`, with SQLite's current message for this connection.
  func error(_ operation: SQLiteError.Operation, code: Int32) -> SQLiteError {
    SQLiteError(
      operation, code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql, path: path,
      databaseName: databaseName)
  }

  /// True when `text` holds only white space and SQL comments.
  private static func isBlankOrComment(_ text: String) -> Bool {
    var rest = Substring(text)
    while true {
      rest = rest.drop(while: \.isWhitespace)
      if rest.isEmpty { return true }
      if rest.hasPrefix("--") {
        rest = rest.drop(while: { $0 != "\n" })
      } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
        rest = rest[end.upperBound...]
      } else {
        return false
      }
    }
  }
}
