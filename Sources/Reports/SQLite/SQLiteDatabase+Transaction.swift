import CSQLite

/// Transactions: all of a body's writes land, or none.
extension SQLiteDatabase {
  /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`; when `body` (or the commit) throws, rolls back and rethrows.
  ///
  /// A file deleted from under the connection is written back first (`restoreIfDeleted`).
  ///
  /// `BEGIN IMMEDIATE` takes the write lock at once (waiting up to the busy timeout), so a transaction never fails
  /// halfway because another connection started writing first. Transactions do not nest: calling this inside
  /// another transaction throws `SQLITE_MISUSE`.
  func transaction<Result>(_ body: () throws -> Result) throws -> Result {
    guard !isInTransaction else {
      throw SQLiteError(
        .transaction, code: SQLITE_MISUSE, message: "a transaction was begun inside another one", path: path,
        databaseName: name)
    }
    try restoreIfDeleted()
    try run("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      if isInTransaction {
        // The original error says what went wrong; a failing rollback adds nothing the caller can act on.
        _ = try? run("ROLLBACK")
      }
      throw error
    }
  }
}
