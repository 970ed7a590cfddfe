import Foundation

/// A value bound to a statement parameter or read from a result column: the SQLite storage classes this program
/// uses (it stores no BLOBs). Dates are stored as integer milliseconds since 1970, UTC.
///
/// A value type: safe to pass between threads.
enum SQLiteValue: Sendable, Equatable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case null

  /// A date as integer milliseconds since 1970-01-01T00:00:00Z (see ``Foundation/Date/millisecondsSince1970``).
  static func date(_ date: Date) -> SQLiteValue { .integer(date.millisecondsSince1970) }

  /// `value`, or NULL when it is nil.
  static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }

  /// `value`, or NULL when it is nil.
  static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

  /// `value` as milliseconds since 1970, or NULL when it is nil.
  static func date(_ value: Date?) -> SQLiteValue { value.map { .date($0) } ?? .null }

  /// The name of the storage class, as SQLite's `typeof()` spells it.
  var typeName: String {
    switch self {
    case .integer: "integer"
    case .real: "real"
    case .text: "text"
    case .null: "null"
    }
  }
}
