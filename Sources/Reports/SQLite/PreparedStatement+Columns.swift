import CSQLite

/// Reading a column of the current row without copying the whole row, for scans over millions of plays. The
/// caller knows the column's type from its own SELECT; NULL reads as 0 or "".
extension PreparedStatement {
  func int64(_ column: Int32) -> Int64 {
    handle.map { sqlite3_column_int64($0, column) } ?? 0
  }

  func double(_ column: Int32) -> Double {
    handle.map { sqlite3_column_double($0, column) } ?? 0
  }

  /// True when the column is NULL.
  func isNull(_ column: Int32) -> Bool {
    handle.map { sqlite3_column_type($0, column) == SQLITE_NULL } ?? true
  }

  /// The first byte of a TEXT column, or 0 when it is empty or NULL.
  func firstByte(_ column: Int32) -> UInt8 {
    guard let handle, let text = sqlite3_column_text(handle, column) else { return 0 }
    return text[0]
  }
}
