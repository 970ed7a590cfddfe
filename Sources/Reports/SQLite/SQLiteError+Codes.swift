import CSQLite

/// Names and operator advice for SQLite result codes.
extension SQLiteError {
  /// What an operator should do about an error with this (extended or primary) result code.
  static func defaultAdvice(for code: Int32) -> String {
    // Growing the `-shm` file beside a WAL database fails so when the disk is full: nothing else is written first.
    if code == SQLITE_IOERR | 19 << 8 {
      return "SQLite could not grow the -shm file beside the database: the disk is most likely full (free some "
        + "space), or the file system does not support shared memory files (use a local disk)."
    }
    return switch code & 0xFF {
    case SQLITE_CANTOPEN:
      "Check that the folder exists and is writable."
    case SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
      "Check that the file and its folder are writable by the user running broadcast-monitor."
    case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL:
      "Another program kept the file locked for longer than the 5 s busy timeout; "
        + "check that no other program writes to it."
    case SQLITE_FULL:
      "The disk is full: free some space."
    case SQLITE_IOERR, SQLITE_NOLFS:
      "The disk or file system reported an error: check the system log and the disk."
    case SQLITE_NOTADB:
      "The file is not an SQLite database: check that the path names the right file (a new name creates a new "
        + "one), or, if it is a damaged one, move it aside and restore it from a backup."
    case SQLITE_CORRUPT:
      "The file is damaged: move it aside and restore it from a backup."
    case SQLITE_NOMEM:
      "The machine ran out of memory: free some memory and try again."
    case SQLITE_INTERRUPT, SQLITE_ABORT:
      "The operation was interrupted: try again."
    default:
      "This is a bug in broadcast-monitor: please report it with this message."
    }
  }

  /// True when the disk is full or failing (`SQLITE_FULL`, `SQLITE_IOERR`): a retry may succeed once there is room.
  public var isDiskProblem: Bool {
    [SQLITE_FULL, SQLITE_IOERR].contains(code & 0xFF)
  }

  /// True when the file is not an SQLite database or is damaged: no retry can help, a person must name the right
  /// file or restore it from a backup.
  public var isUnusableFile: Bool {
    [SQLITE_NOTADB, SQLITE_CORRUPT].contains(code & 0xFF)
  }

  /// The symbolic name of a result code, such as "SQLITE_CANTOPEN"; extended codes this program names are spelled
  /// out ("SQLITE_CONSTRAINT_UNIQUE"), others are given as their primary name and number ("SQLITE_IOERR/1290").
  static func name(of code: Int32) -> String {
    if let name = extendedNames[code] { return name }
    let primary = primaryNames[code & 0xFF] ?? "SQLITE_\(code & 0xFF)"
    return code > 0xFF ? "\(primary)/\(code)" : primary
  }

  private static let primaryNames: [Int32: String] = [
    SQLITE_OK: "SQLITE_OK", SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL",
    SQLITE_PERM: "SQLITE_PERM", SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY",
    SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY",
    SQLITE_INTERRUPT: "SQLITE_INTERRUPT", SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT",
    SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN",
    SQLITE_PROTOCOL: "SQLITE_PROTOCOL", SQLITE_EMPTY: "SQLITE_EMPTY", SQLITE_SCHEMA: "SQLITE_SCHEMA",
    SQLITE_TOOBIG: "SQLITE_TOOBIG", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
    SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
    SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
    SQLITE_NOTICE: "SQLITE_NOTICE", SQLITE_WARNING: "SQLITE_WARNING", SQLITE_ROW: "SQLITE_ROW",
    SQLITE_DONE: "SQLITE_DONE",
  ]

  // The extended codes are C macros that Swift does not import; their values are fixed by SQLite's ABI.
  private static let extendedNames: [Int32: String] = [
    SQLITE_BUSY | 1 << 8: "SQLITE_BUSY_RECOVERY", SQLITE_BUSY | 2 << 8: "SQLITE_BUSY_SNAPSHOT",
    SQLITE_BUSY | 3 << 8: "SQLITE_BUSY_TIMEOUT",
    SQLITE_CANTOPEN | 1 << 8: "SQLITE_CANTOPEN_NOTEMPDIR", SQLITE_CANTOPEN | 2 << 8: "SQLITE_CANTOPEN_ISDIR",
    SQLITE_CANTOPEN | 3 << 8: "SQLITE_CANTOPEN_FULLPATH", SQLITE_CANTOPEN | 5 << 8: "SQLITE_CANTOPEN_DIRTYWAL",
    SQLITE_READONLY | 1 << 8: "SQLITE_READONLY_RECOVERY", SQLITE_READONLY | 2 << 8: "SQLITE_READONLY_CANTLOCK",
    SQLITE_READONLY | 3 << 8: "SQLITE_READONLY_ROLLBACK", SQLITE_READONLY | 4 << 8: "SQLITE_READONLY_DBMOVED",
    SQLITE_READONLY | 5 << 8: "SQLITE_READONLY_CANTINIT", SQLITE_READONLY | 6 << 8: "SQLITE_READONLY_DIRECTORY",
    SQLITE_CONSTRAINT | 1 << 8: "SQLITE_CONSTRAINT_CHECK", SQLITE_CONSTRAINT | 3 << 8: "SQLITE_CONSTRAINT_FOREIGNKEY",
    SQLITE_CONSTRAINT | 5 << 8: "SQLITE_CONSTRAINT_NOTNULL", SQLITE_CONSTRAINT | 6 << 8: "SQLITE_CONSTRAINT_PRIMARYKEY",
    SQLITE_CONSTRAINT | 8 << 8: "SQLITE_CONSTRAINT_UNIQUE", SQLITE_CONSTRAINT | 12 << 8: "SQLITE_CONSTRAINT_DATATYPE",
    SQLITE_IOERR | 4 << 8: "SQLITE_IOERR_FSYNC", SQLITE_IOERR | 3 << 8: "SQLITE_IOERR_WRITE",
    SQLITE_IOERR | 1 << 8: "SQLITE_IOERR_READ", SQLITE_IOERR | 13 << 8: "SQLITE_IOERR_ACCESS",
    SQLITE_IOERR | 19 << 8: "SQLITE_IOERR_SHMSIZE",
  ]
}
