import Foundation

/// One parameter of a PostgreSQL statement, sent in text format (the server converts it to the column's type).
/// Doubles are written in Swift's shortest form that reads back to the same value, and PostgreSQL (12 and later)
/// answers in the same form, so a value makes the round trip unchanged.
///
/// A value type: safe to pass between threads.
enum PostgreSQLValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case boolean(Bool)

  static func integer(_ value: Int64?) -> PostgreSQLValue { value.map { .integer($0) } ?? .null }
  static func text(_ value: String?) -> PostgreSQLValue { value.map { .text($0) } ?? .null }
  static func date(_ value: Date) -> PostgreSQLValue { .integer(value.millisecondsSince1970) }
  static func date(_ value: Date?) -> PostgreSQLValue { value.map { .date($0) } ?? .null }

  /// The text sent to the server; nil for NULL.
  var text: String? {
    switch self {
    case .null: nil
    case .integer(let value): String(value)
    case .real(let value): "\(value)"
    case .text(let value): value
    case .boolean(let value): value ? "true" : "false"
    }
  }
}
