import Foundation

/// A coding key for any string, to list the keys a JSON object really has.
package struct AnyCodingKey: CodingKey {
  package var stringValue: String
  package var intValue: Int? { nil }
  package init(stringValue: String) { self.stringValue = stringValue }
  package init?(intValue: Int) { nil }
}

extension Decoder {
  /// Throws when the object has a key that is not one of `known`: a misspelt setting must not be silently ignored.
  package func rejectUnknownKeys(known: [String]) throws {
    let container = try container(keyedBy: AnyCodingKey.self)
    let allowed = Set(known)
    for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
    where !allowed.contains(key.stringValue) {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath + [key],
          debugDescription: "unknown key `\(key.stringValue)`; correct or remove it (known keys here: "
            + "\(known.sorted().joined(separator: ", ")))"))
    }
  }
}

extension KeyedDecodingContainer {
  /// The value for `key`, or `fallback` when the key is absent: every setting has a documented default.
  package func value<T: Decodable>(_ key: Key, or fallback: T) throws -> T {
    try decodeIfPresent(T.self, forKey: key) ?? fallback
  }
}
