import CSQLite
import Glibc

/// One SQLite connection, set up for a log that must not lose what it was told:
///
/// - `PRAGMA journal_mode=WAL`, and the answer is checked: a file must answer "wal" (readers then never block the
///   writer); only ":memory:" may answer "memory".
/// - `PRAGMA synchronous=FULL`: every commit is synced to the disk, so a logged play survives a power cut.
/// - `PRAGMA foreign_keys=ON`, checked.
/// - a 5 s busy timeout, for when another connection (a report, a backup) holds a lock.
///
/// A read-only connection (``init(path:name:readOnly:)`` with `readOnly: true`, for reports) opens the file with
/// `SQLITE_OPEN_READONLY`, never creates it, and checks that its journal is already WAL: it cannot write, so it can
/// never take the write lock the monitor needs.
///
/// Statements are prepared once and cached by their SQL text; a statement whose run fails is dropped from the
/// cache and finalized. ``close()`` (or `deinit`) finalizes every statement.
///
/// Thread: one thread at a time. It is not Sendable: a connection is opened with `SQLITE_OPEN_NOMUTEX`, so
/// SQLite does not serialize calls for it. Another thread that needs the same file opens its own connection.
final class SQLiteDatabase {
  /// The busy timeout set on open, in milliseconds.
  static let busyTimeoutMilliseconds: Int32 = 5_000

  /// The path as given, or ":memory:".
  let path: String
  /// What the database is to the user, such as "play log": used in error messages.
  let name: String
  /// The journal mode SQLite answered: "wal" for a file, "memory" for ":memory:"; "" while a database opened
  /// later (`init(openingLater:name:onOpen:)`) is not open yet.
  private(set) var journalMode: String
  /// The connection; nil once closed, and until a database opened later opens.
  private var connection: OpaquePointer?
  /// For a database opened later: what to run once it opens (the schema's migrations); nil once that succeeded.
  private var pendingOpen: ((SQLiteDatabase) throws -> Void)?
  /// Prepared statements by SQL text.
  private var statements: [String: PreparedStatement] = [:]
  /// What happened to the file that its owner should log (a restore, `SQLiteDatabase+Restore`); taken by
  /// ``takeNotices()``.
  var notices: [String] = []
  /// Set once the file was replaced while open (`SQLiteDatabase+Restore`): what every write throws from then on.
  var replacedError: SQLiteError?

  /// True for a connection opened read-only.
  let isReadOnly: Bool

  /// Opens (creating if needed) the database at `path`, or a private in-memory database for ":memory:".
  /// - Parameters:
  ///   - name: what the database is to the user, for error messages ("play log").
  ///   - readOnly: open an existing file for reading only (reports).
  /// - Throws: ``SQLiteError`` with operation `.open`, naming the file and what to do.
  init(path: String, name: String = "database", readOnly: Bool = false) throws {
    self.path = path
    self.name = name
    isReadOnly = readOnly
    (connection, journalMode) = try Self.open(path: path, name: name, readOnly: readOnly)
  }

  /// A database for writing that opens on first use, for a monitor that must start while the file cannot be opened
  /// (a disk so full that SQLite cannot create its files): every call tries to open it until it opens, and throws
  /// the open's error until then. Once open, `onOpen` runs (the schema's migrations) before the call goes on; if it
  /// fails, the connection is closed again and the next call tries both again.
  init(openingLater path: String, name: String, onOpen: @escaping (SQLiteDatabase) throws -> Void) {
    self.path = path
    self.name = name
    isReadOnly = false
    journalMode = ""
    pendingOpen = onOpen
  }

  /// Opens and configures a connection; it is closed again when the configuration fails.
  private static func open(path: String, name: String, readOnly: Bool) throws -> (OpaquePointer, String) {
    var handle: OpaquePointer?
    let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_close_v2(handle)
      throw SQLiteError(.open, code: code, message: message, path: path, databaseName: name)
    }
    do {
      return (handle, try configure(handle, path: path, name: name, readOnly: readOnly))
    } catch {
      sqlite3_close_v2(handle)
      throw error
    }
  }

  deinit {
    try? close()
  }

  /// The names of a database's tables, besides SQLite's own, sorted.
  static let tableNamesSQL =
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"

  /// The tables of the existing database file at `path`, read without changing the file (no journal mode is set);
  /// nil when there is no such file, or it cannot be read as a database (the open that follows says why).
  static func tableNames(inExistingFile path: String) -> [String]? {
    guard path != ":memory:", access(path, F_OK) == 0 else { return nil }
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
      let handle
    else { return nil }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(handle, tableNamesSQL, -1, &statement, nil) == SQLITE_OK else { return nil }
    var names: [String] = []
    while true {
      switch sqlite3_step(statement) {
      case SQLITE_ROW: names.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
      case SQLITE_DONE: return names
      default: return nil
      }
    }
  }

  /// True for ":memory:".
  var isInMemory: Bool { path == ":memory:" }

  /// True when a transaction is open on this connection.
  var isInTransaction: Bool { connection.map { sqlite3_get_autocommit($0) == 0 } ?? false }

  /// The rowid of the last successful INSERT on this connection.
  var lastInsertRowID: Int64 { connection.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// How many prepared statements are cached (for tests: it stays constant when the same SQL is run again).
  var cachedStatementCount: Int { statements.count }

  /// Runs SQL that may hold several statements and takes no parameters (a schema, a PRAGMA). Not cached.
  func execute(_ sql: String) throws {
    let connection = try liveConnection(for: sql)
    var errorMessage: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(connection, sql, nil, nil, &errorMessage)
    guard code == SQLITE_OK else {
      let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_free(errorMessage)
      throw SQLiteError(
        .run, code: sqlite3_extended_errcode(connection), message: message, sql: sql, path: path, databaseName: name)
    }
  }

  /// Runs one statement with `values` bound to its parameters; returns how many rows it changed.
  @discardableResult
  func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
    try withStatement(sql, values) { statement in
      while try statement.step() {}
      return Int(sqlite3_changes(try liveConnection(for: sql)))
    }
  }

  /// Runs one query and returns all its rows.
  func query(_ sql: String, _ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
    try withStatement(sql, values) { try $0.rows() }
  }

  /// Runs one query and hands each row to `body` as it comes, without collecting them.
  func forEachRow(_ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
    try withStatement(sql, values) { statement in
      while try statement.step() {
        try body(try statement.currentRow())
      }
    }
  }

  /// True when the file has a table named `name` (a play log written by an older version may lack a newer table).
  func hasTable(_ name: String) throws -> Bool {
    try firstRow("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
  }

  /// Runs one query and returns its first row, or nil when it has none.
  func firstRow(_ sql: String, _ values: [SQLiteValue] = []) throws -> SQLiteRow? {
    try withStatement(sql, values) { statement in try statement.step() ? try statement.currentRow() : nil }
  }

  /// Hands `body` the cached statement for `sql` (preparing it the first time) with `values` bound, and resets
  /// it afterwards so that it holds no lock. When anything throws, the statement is dropped from the cache and
  /// finalized: a failed statement is never reused.
  func withStatement<Result>(
    _ sql: String, _ values: [SQLiteValue], _ body: (PreparedStatement) throws -> Result
  ) throws -> Result {
    try withUnboundStatement(sql) { statement in
      try statement.bind(values)
      return try body(statement)
    }
  }

  /// Hands `body` the cached statement for `sql` with nothing bound, for a caller that binds and runs it many times
  /// itself (a bulk load: ``PreparedStatement/runOnce()`` after each row's binds); cached, reset and dropped on
  /// failure as ``withStatement(_:_:_:)``.
  func withUnboundStatement<Result>(_ sql: String, _ body: (PreparedStatement) throws -> Result) throws -> Result {
    let statement: PreparedStatement
    if let cached = statements[sql] {
      statement = cached
    } else {
      statement = try PreparedStatement(
        sql: sql, connection: try liveConnection(for: sql), path: path, databaseName: name)
      statements[sql] = statement
    }
    do {
      let result = try body(statement)
      statement.reset()
      return result
    } catch {
      statements[sql] = nil
      statement.finalize()
      throw error
    }
  }

  /// The connection, when open.
  var openConnection: OpaquePointer? { connection }

  /// The notices since the last call, oldest first.
  func takeNotices() -> [String] {
    defer { notices = [] }
    return notices
  }

  /// Closes the connection, runs `between`, and opens the same path again for writing.
  func reopen(_ between: () -> Void) throws {
    try closeConnection()
    between()
    (connection, journalMode) = try Self.open(path: path, name: name, readOnly: false)
  }

  /// Closes the connection (for `SQLiteDatabase+Restore`).
  func closeConnectionNow() throws { try closeConnection() }

  /// Finalizes every statement and closes the connection. Further use throws `SQLITE_MISUSE`.
  func close() throws {
    pendingOpen = nil
    try closeConnection()
  }

  private func closeConnection() throws {
    guard let connection else { return }
    for statement in statements.values {
      statement.finalize()
    }
    statements = [:]
    self.connection = nil
    let code = sqlite3_close_v2(connection)
    guard code == SQLITE_OK else {
      throw SQLiteError(
        .close, code: code, message: String(cString: sqlite3_errstr(code)), path: path, databaseName: name)
    }
  }

  /// The connection (opening a database opened later), or an error when the database was closed.
  private func liveConnection(for sql: String?) throws -> OpaquePointer {
    if connection == nil, let onOpen = pendingOpen {
      (connection, journalMode) = try Self.open(path: path, name: name, readOnly: false)
      do {
        try onOpen(self)
        pendingOpen = nil
      } catch {
        try? closeConnection()
        throw error
      }
    }
    guard let connection else {
      throw SQLiteError(
        .run, code: SQLITE_MISUSE, message: "the database was closed", sql: sql, path: path, databaseName: name)
    }
    return connection
  }
}
