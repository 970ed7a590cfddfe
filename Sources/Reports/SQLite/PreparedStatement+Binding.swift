import CSQLite
import Foundation

/// Binding values to `?` parameters (numbered from 1, as in SQLite).
extension PreparedStatement {
  /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call returns. The C macro does not import.
  private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

  /// Binds `values` to parameters 1…n; their count must match the statement's parameters.
  func bind(_ values: [SQLiteValue]) throws {
    guard values.count == parameterCount else {
      throw SQLiteError(
        .bind, code: SQLITE_RANGE, message: "\(values.count) values for \(parameterCount) parameters", sql: sql,
        path: path, databaseName: databaseName)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
  }

  func bind(_ value: SQLiteValue, at index: Int32) throws {
    switch value {
    case .integer(let integer): try bind(integer, at: index)
    case .real(let real): try bind(real, at: index)
    case .text(let text): try bind(text, at: index)
    case .null: try bindNull(at: index)
    }
  }

  func bind(_ value: Int64, at index: Int32) throws {
    try check(sqlite3_bind_int64(try liveHandle(), index, value))
  }

  /// Binds a REAL. NaN would be stored as NULL by SQLite: callers validate that their numbers are finite.
  func bind(_ value: Double, at index: Int32) throws {
    try check(sqlite3_bind_double(try liveHandle(), index, value))
  }

  /// Binds TEXT, byte for byte (an embedded NUL is kept). The empty string binds as '' (not NULL).
  func bind(_ value: String, at index: Int32) throws {
    let statement = try liveHandle()
    var text = value
    let code = text.withUTF8 { bytes -> Int32 in
      guard let base = bytes.baseAddress, bytes.count > 0 else {
        return sqlite3_bind_text(statement, index, "", 0, Self.transient)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text64(statement, index, $0, UInt64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
      }
    }
    try check(code)
  }

  /// Binds TEXT from UTF-8 bytes that SQLite does not copy (`SQLITE_STATIC`): they must stay valid and unchanged
  /// until the statement has run and been reset (a bulk load's row, bound and run at once).
  func bind(borrowedUTF8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
    let statement = try liveHandle()
    guard let base = bytes.baseAddress else { return try check(sqlite3_bind_text(statement, index, "", 0, nil)) }
    let code = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
      sqlite3_bind_text64(statement, index, $0, UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))  // nil: SQLITE_STATIC
    }
    try check(code)
  }

  /// Binds a date as integer milliseconds since 1970, UTC.
  func bind(_ value: Date, at index: Int32) throws {
    try bind(value.millisecondsSince1970, at: index)
  }

  func bindNull(at index: Int32) throws {
    try check(sqlite3_bind_null(try liveHandle(), index))
  }

  private func check(_ code: Int32) throws {
    guard code == SQLITE_OK else { throw error(.bind, code: code) }
  }
}
