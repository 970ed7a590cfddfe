import CSQLite

/// The settings applied on open, each checked against SQLite's answer.
extension SQLiteDatabase {
  /// Sets the busy timeout, WAL journal, FULL synchronous writes and foreign keys on `connection`;
  /// returns the journal mode SQLite answered. A read-only connection only gets the busy timeout and a check that
  /// the file's journal is WAL (it cannot change it).
  static func configure(_ connection: OpaquePointer, path: String, name: String, readOnly: Bool = false) throws
    -> String
  {
    func fail(_ code: Int32, _ message: String, sql: String?, advice: String? = nil) -> SQLiteError {
      SQLiteError(.open, code: code, message: message, sql: sql, path: path, databaseName: name, advice: advice)
    }
    func answer(_ sql: String) throws -> String? {
      var statement: OpaquePointer?
      defer { sqlite3_finalize(statement) }
      var code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
      if code == SQLITE_OK {
        code = sqlite3_step(statement)
      }
      switch code {
      case SQLITE_ROW:
        return sqlite3_column_text(statement, 0).map { String(cString: $0) }
      case SQLITE_DONE, SQLITE_OK:
        return nil
      default:
        throw fail(sqlite3_extended_errcode(connection), String(cString: sqlite3_errmsg(connection)), sql: sql)
      }
    }

    sqlite3_extended_result_codes(connection, 1)
    let timeoutCode = sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
    guard timeoutCode == SQLITE_OK else {
      throw fail(timeoutCode, String(cString: sqlite3_errmsg(connection)), sql: nil)
    }

    let isInMemory = path == ":memory:"
    if readOnly {
      let journalSQL = "PRAGMA journal_mode"
      let journalMode = try answer(journalSQL)?.lowercased() ?? ""
      guard journalMode == "wal" || isInMemory else {
        throw fail(
          SQLITE_ERROR, "journal_mode is \"\(journalMode)\", not \"wal\"", sql: journalSQL,
          advice: "This is not a play log written by broadcast-monitor, or an old copy: open it once with "
            + "`broadcast-monitor scan --db` or `run`, which switch it to write-ahead logging.")
      }
      return journalMode
    }
    let journalSQL = "PRAGMA journal_mode=WAL"
    let journalMode = try answer(journalSQL)?.lowercased() ?? ""
    guard journalMode == "wal" || (isInMemory && journalMode == "memory") else {
      throw fail(
        SQLITE_ERROR, "journal_mode answered \"\(journalMode)\" instead of \"wal\"", sql: journalSQL,
        advice: "Put the file on a local disk: write-ahead logging does not work on network file systems.")
    }

    _ = try answer("PRAGMA synchronous=FULL")
    _ = try answer("PRAGMA foreign_keys=ON")
    let foreignKeysSQL = "PRAGMA foreign_keys"
    guard try answer(foreignKeysSQL) == "1" else {
      throw fail(
        SQLITE_ERROR, "foreign_keys is not on after PRAGMA foreign_keys=ON", sql: foreignKeysSQL,
        advice: "Use an SQLite library built with foreign key support (Debian's libsqlite3 is).")
    }
    return journalMode
  }
}
