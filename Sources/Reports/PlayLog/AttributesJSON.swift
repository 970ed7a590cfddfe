import Foundation

/// How a catalog item's extra attributes are stored: a JSON object of strings, keys sorted, so that the same
/// attributes always give the same text.
///
/// Stateless: safe to call from any thread.
enum AttributesJSON {
  /// `attributes` as a JSON object, keys sorted; "{}" when empty.
  static func encode(_ attributes: [String: String]) throws -> String {
    guard !attributes.isEmpty else { return "{}" }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(attributes), as: UTF8.self)
  }

  /// The attributes in `json`, or nil when it is not a JSON object of strings.
  static func decode(_ json: String) -> [String: String]? {
    if json == "{}" { return [:] }
    return try? JSONDecoder().decode([String: String].self, from: Data(json.utf8))
  }
}
