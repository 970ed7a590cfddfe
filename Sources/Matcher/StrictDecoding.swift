import Foundation

/// A coding key for any string, to list the keys a JSON object really has.
struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension Decoder {
  /// Throws when the object has a key that is not one of `known`: a misspelt setting must not be silently ignored.
  func rejectUnknownKeys(known: [String]) throws {
    let container = try container(keyedBy: AnyCodingKey.self)
    let allowed = Set(known)
    for key in container.allKeys where !allowed.contains(key.stringValue) {
      let path = (codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath + [key],
          debugDescription: "unknown key `\(path)` (known keys: \(known.sorted().joined(separator: ", ")))"))
    }
  }
}

extension KeyedDecodingContainer {
  /// The value for `key`, or `fallback` when the key is absent: every setting has a documented default.
  func value<T: Decodable>(_ key: Key, or fallback: T) throws -> T {
    try decodeIfPresent(T.self, forKey: key) ?? fallback
  }
}
