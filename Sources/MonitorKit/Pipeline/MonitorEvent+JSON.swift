import Foundation
import Reports

/// A `MonitorEvent` as one line of JSON: `{"time":…,"channel":…,"event":…,"message":…, then the event's fields}`.
/// Times are ISO 8601 UTC strings with milliseconds; `channel` is null for the whole monitor; numbers that are not
/// finite are written as null; control characters are escaped (see `appendString`). Written by hand so that the keys
/// keep their documented order.
extension MonitorEvent {
  var jsonLine: String {
    var out = "{"
    Self.appendMember("time", .time(time), to: &out, first: true)
    Self.appendMember("channel", channel.map(Value.string) ?? .null, to: &out)
    Self.appendMember("event", .string(name.rawValue), to: &out)
    Self.appendMember("message", .string(message), to: &out)
    for (key, value) in fields { Self.appendMember(key, value, to: &out) }
    out += "}"
    return out
  }

  private static func appendMember(_ key: String, _ value: Value, to out: inout String, first: Bool = false) {
    if !first { out += "," }
    appendString(key, to: &out)
    out += ":"
    switch value {
    case .string(let text): appendString(text, to: &out)
    case .time(let date): appendString(ISO8601Millis.format(date), to: &out)
    case .integer(let number): out += String(number)
    case .number(let number): out += number.isFinite ? "\(number)" : "null"
    case .null: out += "null"
    }
  }

  /// A JSON string literal (RFC 8259): quotes and backslashes escaped, and every character that
  /// `DisplayWidth.needsEscaping` names (controls, line separators, bidirectional overrides) written as `\uXXXX`, so
  /// that the line stays one line and shows nothing but text when printed.
  static func appendString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where DisplayWidth.needsEscaping(scalar):
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
