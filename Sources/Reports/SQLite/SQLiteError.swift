import CSQLite

/// An SQLite call on a database file failed: what SQLite answered, the SQL and the file, and what to do about it.
///
/// `description` reads as one sentence for a log or a terminal, for example
/// "cannot open play log /x/plays.sqlite: unable to open database file (SQLITE_CANTOPEN).
/// Check that the folder exists and is writable."
///
/// A value type: safe to pass between threads.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// What the program was doing when SQLite failed.
  public enum Operation: String, Sendable {
    /// Opening the file and setting it up (WAL journal, synchronous writes, foreign keys, busy timeout).
    case open
    /// Compiling one SQL statement.
    case prepare
    /// Binding a value to a statement parameter.
    case bind
    /// Running SQL.
    case run
    /// Reading a column of a result row.
    case read
    /// Beginning, committing or rolling back a transaction.
    case transaction
    /// Closing the database.
    case close
  }

  /// What the program was doing.
  public let operation: Operation
  /// SQLite's extended result code, such as `SQLITE_CANTOPEN` (14) or `SQLITE_CONSTRAINT_UNIQUE` (2067).
  /// `SQLITE_ERROR` when the program itself refused an answer SQLite gave (`message` says which).
  public let code: Int32
  /// SQLite's error message, such as "unable to open database file".
  public let message: String
  /// The SQL being prepared or run, if any.
  public let sql: String?
  /// The database file, or ":memory:".
  public let path: String
  /// What the database is to the user, such as "play log".
  public let databaseName: String
  /// What to do about it: a sentence addressed to the operator.
  public let advice: String

  /// Makes an error; `advice` defaults to the advice for `code` (see ``defaultAdvice(for:)``).
  init(
    _ operation: Operation, code: Int32, message: String, sql: String? = nil, path: String,
    databaseName: String = "database", advice: String? = nil
  ) {
    self.operation = operation
    self.code = code
    self.message = message
    self.sql = sql
    self.path = path
    self.databaseName = databaseName
    self.advice = advice ?? Self.defaultAdvice(for: code)
  }

  /// The symbolic name of `code`, such as "SQLITE_CANTOPEN" or "SQLITE_CONSTRAINT_UNIQUE".
  public var codeName: String { Self.name(of: code) }

  public var description: String {
    var text = "cannot \(verbPhrase) \(databaseName) \(path): \(message) (\(codeName)). \(advice)"
    if let sql {
      text += " SQL: \(Self.abbreviated(sql))"
    }
    return text
  }

  private var verbPhrase: String {
    switch operation {
    case .open: "open"
    case .prepare: "prepare SQL for"
    case .bind: "bind a value for"
    case .run: "run SQL on"
    case .read: "read a result from"
    case .transaction: "complete a transaction on"
    case .close: "close"
    }
  }

  /// The SQL on one line, at most 200 characters, so that a log line stays readable.
  private static func abbreviated(_ sql: String) -> String {
    let oneLine = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return oneLine.count <= 200 ? oneLine : String(oneLine.prefix(199)) + "…"
  }
}
