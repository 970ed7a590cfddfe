import CSQLite
import Foundation

/// One result row, copied out of SQLite: it stays valid after the statement moves on or is finalized.
///
/// The typed accessors throw an ``SQLiteError`` (`SQLITE_MISMATCH`) naming the column when a value is NULL or of
/// another type, so that a hand-edited or damaged file gives a clear message instead of a wrong report.
///
/// A value type: safe to pass between threads.
struct SQLiteRow: Sendable {
  /// The column values, in the order of the SELECT.
  let values: [SQLiteValue]
  /// The column names, in the same order.
  let columnNames: [String]
  /// The statement that produced the row, for error messages.
  let sql: String
  /// The database file, for error messages.
  let path: String
  /// What the database is to the user, for error messages.
  let databaseName: String

  subscript(column: Int) -> SQLiteValue { values[column] }

  func int64(_ column: Int) throws -> Int64 {
    guard case .integer(let value) = values[column] else { throw mismatch(column, expected: "an integer") }
    return value
  }

  func optionalInt64(_ column: Int) throws -> Int64? {
    if case .null = values[column] { return nil }
    return try int64(column)
  }

  /// A REAL column; an INTEGER is accepted too (SQLite stores whole REAL values such as 1.0 compactly).
  func double(_ column: Int) throws -> Double {
    switch values[column] {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: throw mismatch(column, expected: "a number")
    }
  }

  func string(_ column: Int) throws -> String {
    guard case .text(let value) = values[column] else { throw mismatch(column, expected: "text") }
    return value
  }

  /// An INTEGER column of milliseconds since 1970, UTC.
  func date(_ column: Int) throws -> Date {
    Date(millisecondsSince1970: try int64(column))
  }

  func optionalDate(_ column: Int) throws -> Date? {
    try optionalInt64(column).map(Date.init(millisecondsSince1970:))
  }

  private func mismatch(_ column: Int, expected: String) -> SQLiteError {
    let name = column < columnNames.count ? columnNames[column] : "#\(column)"
    return SQLiteError(
      .read, code: SQLITE_MISMATCH,
      message: "column \(name) holds \(values[column].typeName), expected \(expected)", sql: sql, path: path,
      databaseName: databaseName,
      advice: "The file was changed by another program or is damaged: restore it from a backup.")
  }
}
