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
  /// A whole-number setting is read through `wholeNumberIfPresent`, so that `2.5` is refused as such.
  package func value<T: Decodable>(_ key: Key, or fallback: T) throws -> T {
    if T.self == Int.self, let whole = try wholeNumberIfPresent(key) as? T { return whole }
    return try decodeIfPresent(T.self, forKey: key) ?? fallback
  }

  /// The whole number at `key`, or nil when the key is absent. A number with a fraction (`2.5`) or beyond `Int`
  /// is an error naming the key and the value: `JSONDecoder` itself calls the first "not valid JSON", without a key.
  package func wholeNumberIfPresent(_ key: Key) throws -> Int? {
    let read: Double?
    do { read = try decodeIfPresent(Double.self, forKey: key) } catch DecodingError.typeMismatch(_, let context) {
      throw DecodingError.typeMismatch(Int.self, context)  // "expected a whole number", not "a number"
    }
    guard let number = read else { return nil }
    if let whole = Int(exactly: number) { return whole }
    let reason =
      number.isFinite && number.rounded() != number
      ? "\(number) is not a whole number; write one without a fraction, such as \(Int(number.rounded(.down)))"
      : "\(number) is too large for this setting; write a whole number within its range"
    throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: reason)
  }
}

extension Decoder {
  /// The word this value holds, as one of `T`'s cases: a word that is not one is an error that names it and lists
  /// the words there are (`fire` is not one of `silence`, `source_down`, …), where the synthesized decoder says only
  /// that it cannot initialize the type.
  package func word<T: RawRepresentable & CaseIterable>(of type: T.Type) throws -> T where T.RawValue == String {
    let container = try singleValueContainer()
    let word = try container.decode(String.self)
    guard let value = T(rawValue: word) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "`\(word)` is not one of "
          + T.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") + "; use one of them")
    }
    return value
  }
}
