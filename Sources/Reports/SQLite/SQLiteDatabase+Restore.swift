import CSQLite
import Glibc

/// A database file deleted or replaced while it is open (`rm plays.sqlite` by mistake, a clean-up script, a backup
/// copied over it): SQLite goes on writing to the file it has open, which no name reaches any more, so everything
/// written since would be lost at the next close, while every write still succeeds. Before each transaction, a
/// connection that writes checks that its file is still at its path (`SQLITE_FCNTL_HAS_MOVED`: a stat of the path
/// against the open file, microseconds).
///
/// - Deleted (nothing at the path): the database is written back to the path from the open file, whole, and opened
///   there again; `notices` says so.
/// - Replaced (another file at the path): that file is not written over. What this connection holds is kept beside
///   it (`PATH.replaced-SECONDS`), the connection lets go of the write-ahead log and shared memory names the new file
///   needs, and every write from then on fails, naming the fix (a restart writes into the new file).
extension SQLiteDatabase {
  /// True when the file this connection has open is no longer at `path` (deleted, or renamed away).
  var fileHasMoved: Bool {
    guard let connection = openConnection, !isInMemory else { return false }
    var moved: Int32 = 0
    return sqlite3_file_control(connection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
  }

  /// Checks that the file is still at its path, and writes it back there when it was deleted.
  /// - Throws: ``SQLiteError`` when another file is at the path now (and from then on), or the restore fails.
  func restoreIfDeleted() throws {
    if let replacedError { throw replacedError }
    guard !isReadOnly, fileHasMoved else { return }
    guard access(path, F_OK) != 0 else { throw letGoOfReplacedFile() }
    let staging = path + ".restoring"
    try writeCopy(to: staging)
    guard rename(staging, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(staging)
      throw SQLiteError(
        .run, code: SQLITE_IOERR, message: "cannot rename \(staging) to \(path): \(reason)", path: path,
        databaseName: name)
    }
    // The old connection's write-ahead log and shared memory go by name: none must be taken for the new file's.
    try reopen {
      unlink(path + "-wal")
      unlink(path + "-shm")
    }
    notices.append(
      "\(name) \(path) was deleted while in use: written back from the open file, whole, and opened there again")
  }

  /// The open database, its write-ahead log checkpointed first, written whole to a new file at `copy`.
  private func writeCopy(to copy: String) throws {
    unlink(copy)
    do {
      try execute("PRAGMA wal_checkpoint(TRUNCATE)")
      try run("VACUUM INTO ?", [.text(copy)])
    } catch {
      unlink(copy)
      throw error
    }
  }

  /// Keeps what this connection holds beside the file now at the path, closes the connection (its write-ahead log
  /// checkpointed and emptied first, so that the new file never reads its pages), and returns the error every write
  /// throws from now on.
  private func letGoOfReplacedFile() -> SQLiteError {
    let kept = path + ".replaced-\(time(nil))"
    let keptNote = (try? writeCopy(to: kept)) != nil ? "; what was written to the one replaced is kept in \(kept)" : ""
    try? closeConnectionNow()
    let error = SQLiteError(
      .transaction, code: SQLITE_READONLY | (4 << 8),  // SQLITE_READONLY_DBMOVED, a macro Swift cannot import
      message: "the file was replaced while in use: another file is at its path now\(keptNote)", path: path,
      databaseName: name,
      advice: "Restart broadcast-monitor to write into the file now at the path (the writes waiting meanwhile are "
        + "written there)")
    replacedError = error
    return error
  }
}
