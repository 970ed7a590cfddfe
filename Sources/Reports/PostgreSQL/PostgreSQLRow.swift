import Foundation

/// One row of a PostgreSQL result, as the server's text: read a column as the type the SQL gives it.
///
/// A value type: safe to pass between threads.
struct PostgreSQLRow: Sendable {
  let values: [String?]
  /// The SQL that gave it, and the server, for errors.
  let sql: String
  let url: String

  func optionalInt64(_ column: Int) throws -> Int64? {
    guard let text = values[column] else { return nil }
    guard let value = Int64(text) else { throw mismatch(column, "an integer") }
    return value
  }

  func int64(_ column: Int) throws -> Int64 {
    guard let value = try optionalInt64(column) else { throw mismatch(column, "an integer, not NULL") }
    return value
  }

  func double(_ column: Int) throws -> Double {
    guard let text = values[column], let value = Double(text) else { throw mismatch(column, "a number") }
    return value
  }

  func string(_ column: Int) throws -> String {
    guard let text = values[column] else { throw mismatch(column, "a text, not NULL") }
    return text
  }

  func optionalString(_ column: Int) -> String? { values[column] }

  func date(_ column: Int) throws -> Date { Date(millisecondsSince1970: try int64(column)) }

  private func mismatch(_ column: Int, _ expected: String) -> PostgreSQLError {
    PostgreSQLError(
      message: "column \(column) is \(values[column].map { "\"\($0)\"" } ?? "NULL"), not \(expected)", sql: sql,
      url: url, advice: "The play log's tables were changed by another program: restore them from a backup.")
  }
}
