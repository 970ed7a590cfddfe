import Foundation

extension ConfigurationError {
  /// The error for a JSON file that `JSONDecoder` could not decode: the file and the key path in it
  /// (`monitor.json5: channels[2].source`), and what was wrong there in words. With the file's `data`, a syntax
  /// error, of which the decoder does not say where it is, gives the line and column where the text breaks.
  package init(_ error: DecodingError, file: String, data: Data? = nil) {
    func at(_ path: [any CodingKey]) -> String { path.isEmpty ? file : "\(file): \(Self.keyPath(path))" }
    switch error {
    case .dataCorrupted(let context):
      var reason = context.debugDescription
      if let underlying = context.underlyingError {
        reason += " (\(underlying))"
      } else if context.codingPath.isEmpty {
        // A syntax error: JSONDecoder does not say where, so say where the grammar breaks and what to look for.
        if let data, let place = JSON5Scanner.syntaxBreak(in: data) {
          reason =
            "line \(place.line), column \(place.column)"
            + (place.atEnd
              ? " (the end of the file)" : place.text.isEmpty ? " (the end of the line)" : " (at `\(place.text)`)")
            + ": " + reason
        }
        reason +=
          " Look for a missing or doubled comma or colon, or an unclosed quote, bracket or brace "
          + "(JSON5 allows comments, trailing commas and unquoted keys)."
      }
      self.init(keyPath: at(context.codingPath), reason: reason)
    case .typeMismatch(let type, let context):
      self.init(keyPath: at(context.codingPath), reason: "expected \(Self.describe(type))")
    case .valueNotFound(let type, let context):
      self.init(keyPath: at(context.codingPath), reason: "is null; expected \(Self.describe(type))")
    case .keyNotFound(let key, let context):
      self.init(
        keyPath: at(context.codingPath + [key]), reason: "missing required key `\(key.stringValue)`; add it")
    @unknown default:
      self.init(keyPath: file, reason: "\(error)")
    }
  }

  /// A coding path as a person writes it: `channels[2].source.stream.url`.
  package static func keyPath(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is Int.Type, is Int32.Type, is Int64.Type, is UInt.Type, is UInt32.Type: "a whole number"
    case is Double.Type, is Float.Type: "a number"
    case is [Any].Type: "a list [ … ]"
    case is [String: Any].Type: "an object { … }"
    default: "\(type)"
    }
  }
}
