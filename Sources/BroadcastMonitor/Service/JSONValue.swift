import Foundation
import Reports

/// A JSON document built in code, its object keys in the order given (so that responses read as the API contract
/// lists them), and written with the same string escaping as the log's JSON lines (`MonitorEvent.appendString`).
/// Numbers that are not finite are written as null. Times are ISO 8601 UTC strings with milliseconds.
///
/// A value type: safe to pass between threads.
indirect enum JSONValue: Sendable, Equatable {
  case object([(String, JSONValue)])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case integer(Int64)
  case bool(Bool)
  case null

  /// A time as `2026-12-01T12:00:00.123Z`.
  static func time(_ date: Date) -> JSONValue { .string(ISO8601Millis.format(date)) }

  /// `value` as JSON, or null when it is nil.
  static func optional<T>(_ value: T?, _ make: (T) -> JSONValue) -> JSONValue { value.map(make) ?? .null }

  static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }

  /// The document as compact JSON text.
  var text: String {
    var out = ""
    append(to: &out)
    return out
  }

  private func append(to out: inout String) {
    switch self {
    case .object(let members):
      out += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out += "," }
        MonitorEvent.appendString(key, to: &out)
        out += ":"
        value.append(to: &out)
      }
      out += "}"
    case .array(let elements):
      out += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { out += "," }
        element.append(to: &out)
      }
      out += "]"
    case .string(let text): MonitorEvent.appendString(text, to: &out)
    case .number(let number): out += number.isFinite ? "\(number)" : "null"
    case .integer(let number): out += String(number)
    case .bool(let flag): out += flag ? "true" : "false"
    case .null: out += "null"
    }
  }
}
