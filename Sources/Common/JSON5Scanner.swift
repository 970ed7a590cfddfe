import Foundation

/// What `JSONDecoder` lets through in a JSON5 configuration file without a word: a key written twice in one object
/// (it keeps one of the values) and a number that is not finite (`Infinity`, `-Infinity`, `NaN`, or `1e999`, which
/// overflows to infinity). `problem(in:file:)` walks the text once, without building values, and names the first
/// such place by its key path and line.
///
/// It reads the JSON5 grammar: `//` and `/* */` comments, single- and double-quoted strings with escapes, unquoted
/// keys, trailing commas. Text it cannot read is left to `JSONDecoder`, which reports the syntax error: the scan
/// only ever adds refusals for text that decodes.
///
/// Threads: a value; any thread.
package struct JSON5Scanner {
  private let bytes: [UInt8]
  private var offset = 0
  private var line = 1
  /// Where the value being read sits: object keys and array indices from the top.
  private var path: [any CodingKey] = []
  /// The first key written twice or number that is not finite.
  private var found: Found?
  /// Objects and arrays open around the value being read.
  private var depth = 0

  /// The deepest nesting read; deeper text is left to the decoder (which refuses past 512 levels). Each level is a
  /// call, so without a bound a file of `[[[[…` would overflow the stack.
  static let maxDepth = 512

  /// The text ends or breaks the grammar here: the scan stops and leaves the text to `JSONDecoder`.
  private struct Unreadable: Error {}

  /// A key written twice, or a number that is not finite.
  private struct Found {
    var keyPath: [any CodingKey]
    var line: Int
    var reason: String
  }

  private init(_ data: Data) { bytes = [UInt8](data) }

  /// The first key written twice in one object or number that is not finite in `data`, as a `ConfigurationError`
  /// naming `file`, the key path and the line; nil when there is none, or when the text is not JSON5 at all (the
  /// decoder then says what is wrong).
  package static func problem(in data: Data, file: String) -> ConfigurationError? {
    var scanner = JSON5Scanner(data)
    do {
      try scanner.skipSpace()
      try scanner.value()
      try scanner.skipSpace()
      guard scanner.offset == scanner.bytes.count, let found = scanner.found else { return nil }
      let place = found.keyPath.isEmpty ? file : "\(file): \(ConfigurationError.keyPath(found.keyPath))"
      return ConfigurationError(keyPath: place, reason: "line \(found.line): \(found.reason)")
    } catch {
      return nil
    }
  }

  /// Where the text first breaks the JSON5 grammar, for a decoder's syntax error that does not say where: the line,
  /// the column (in characters), the text from there to the end of its line (at most 40 characters) and whether that
  /// is the end of the file (an unclosed quote or comment is placed where it opens); nil when the
  /// grammar as this scan reads it holds (the decoder refuses something finer, such as a misspelt `true`).
  package static func syntaxBreak(in data: Data) -> (line: Int, column: Int, text: String, atEnd: Bool)? {
    var scanner = JSON5Scanner(data)
    do {
      try scanner.skipSpace()
      try scanner.value()
      try scanner.skipSpace()
      if scanner.offset == scanner.bytes.count { return nil }
    } catch {}
    let at = min(scanner.offset, scanner.bytes.count)
    let lineStart = scanner.bytes[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    let lineEnd = scanner.bytes[at...].firstIndex(of: 0x0A) ?? scanner.bytes.count
    let column = String(decoding: scanner.bytes[lineStart..<at], as: UTF8.self).count + 1
    let rest = String(decoding: scanner.bytes[at..<lineEnd], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    return (scanner.line, column, rest.count > 40 ? String(rest.prefix(40)) + "…" : rest, at == scanner.bytes.count)
  }

  /// Keeps the first problem; the scan goes on to the end, so that text the decoder refuses is not reported here.
  private mutating func report(_ problem: Found) {
    if found == nil { found = problem }
  }

  // MARK: Grammar

  private mutating func value() throws {
    guard offset < bytes.count, depth < Self.maxDepth else { throw Unreadable() }
    depth += 1
    defer { depth -= 1 }
    switch bytes[offset] {
    case UInt8(ascii: "{"): try object()
    case UInt8(ascii: "["): try array()
    case UInt8(ascii: "\""), UInt8(ascii: "'"): _ = try string()
    default: try primitive()
    }
  }

  private mutating func object() throws {
    offset += 1
    var keys: [String: Int] = [:]
    try skipSpace()
    while try peek() != UInt8(ascii: "}") {
      let keyLine = line
      let key = try peek() == UInt8(ascii: "\"") || peek() == UInt8(ascii: "'") ? try string() : try identifier()
      path.append(AnyCodingKey(stringValue: key))
      if let first = keys[key] {
        report(
          Found(
            keyPath: path, line: keyLine,
            reason: "the key `\(key)` is written twice in the same object (first on line \(first)); the reader would "
              + "keep only one of the values, so remove or rename one of them"))
      } else {
        keys[key] = keyLine
      }
      try skipSpace()
      guard try peek() == UInt8(ascii: ":") else { throw Unreadable() }
      offset += 1
      try skipSpace()
      try value()
      path.removeLast()
      try skipSpace()
      if try peek() == UInt8(ascii: ",") {
        offset += 1
        try skipSpace()
      } else if try peek() != UInt8(ascii: "}") {
        throw Unreadable()
      }
    }
    offset += 1
  }

  private mutating func array() throws {
    offset += 1
    var index = 0
    try skipSpace()
    while try peek() != UInt8(ascii: "]") {
      path.append(IndexKey(intValue: index))
      try value()
      path.removeLast()
      index += 1
      try skipSpace()
      if try peek() == UInt8(ascii: ",") {
        offset += 1
        try skipSpace()
      } else if try peek() != UInt8(ascii: "]") {
        throw Unreadable()
      }
    }
    offset += 1
  }

  /// A number, `true`, `false` or `null`: the run of characters up to the next delimiter.
  private mutating func primitive() throws {
    let start = offset
    let valueLine = line
    while offset < bytes.count, !Self.delimiters.contains(bytes[offset]) { offset += 1 }
    guard offset > start, let token = String(bytes: bytes[start..<offset], encoding: .utf8) else {
      throw Unreadable()
    }
    let unsigned = token.hasPrefix("-") || token.hasPrefix("+") ? String(token.dropFirst()) : token
    let isNumeral = unsigned.first.map { $0.isNumber || $0 == "." } ?? false
    let overflows = isNumeral && Double(token).map { !$0.isFinite } ?? false
    if unsigned == "Infinity" || unsigned == "NaN" || overflows {
      report(
        Found(
          keyPath: path, line: valueLine,
          reason: "`\(token)` is not a finite number; write a number such as 10 (every setting has a range, listed "
            + "in config/monitor.example.json5)"))
    }
  }

  /// A quoted string with its escapes resolved (keys are compared as the decoder compares them).
  private mutating func string() throws -> String {
    let (start, startLine) = (offset, line)
    let quote = bytes[offset]
    offset += 1
    var text: [UInt8] = []
    while true {
      guard offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") else {
        (offset, line) = (start, startLine)  // an unclosed quote: the break is where the string began
        throw Unreadable()
      }
      let byte = bytes[offset]
      offset += 1
      if byte == quote { break }
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        continue
      }
      guard offset < bytes.count else { throw Unreadable() }
      let escaped = bytes[offset]
      offset += 1
      switch escaped {
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "v"): text.append(0x0B)
      case UInt8(ascii: "0"): text.append(0x00)
      case UInt8(ascii: "\n"): line += 1  // a line continuation: nothing
      case UInt8(ascii: "\r"):
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") { offset += 1 }
        line += 1
      case UInt8(ascii: "x"): text += try scalarUTF8(hexDigits: 2)
      case UInt8(ascii: "u"): text += try scalarUTF8(hexDigits: 4)
      default: text.append(escaped)
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// An unquoted key: letters, digits, `_`, `$` and any non-ASCII character.
  private mutating func identifier() throws -> String {
    let start = offset
    while offset < bytes.count {
      let byte = bytes[offset]
      let isWord =
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "\\")
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
      guard isWord else { break }
      offset += 1
    }
    guard offset > start else { throw Unreadable() }
    return String(decoding: bytes[start..<offset], as: UTF8.self)
  }

  /// The UTF-8 of the code point written as `hexDigits` hex digits (a `\uD83D\uDE00` pair is joined).
  private mutating func scalarUTF8(hexDigits: Int) throws -> [UInt8] {
    func hex() throws -> UInt32 {
      guard offset + hexDigits <= bytes.count,
        let text = String(bytes: bytes[offset..<(offset + hexDigits)], encoding: .ascii),
        let value = UInt32(text, radix: 16)
      else { throw Unreadable() }
      offset += hexDigits
      return value
    }
    var value = try hex()
    if hexDigits == 4, (0xD800..<0xDC00).contains(value), offset + 2 <= bytes.count,
      bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
    {
      offset += 2
      let low = try hex()
      value = 0x10000 + ((value - 0xD800) << 10) + ((low &- 0xDC00) & 0x3FF)
    }
    return Array(String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}").utf8)
  }

  // MARK: Space

  private func peek() throws -> UInt8 {
    guard offset < bytes.count else { throw Unreadable() }
    return bytes[offset]
  }

  /// Skips white space (JSON5's, `U+00A0`, `U+FEFF`, `U+2028` and `U+2029` included) and comments, counting lines.
  private mutating func skipSpace() throws {
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case 0x0A:
        line += 1
        offset += 1
      case 0x09, 0x0B, 0x0C, 0x0D, 0x20: offset += 1
      case 0xC2 where next(is: [0xC2, 0xA0]): offset += 2
      case 0xEF where next(is: [0xEF, 0xBB, 0xBF]): offset += 3
      case 0xE2 where next(is: [0xE2, 0x80, 0xA8]) || next(is: [0xE2, 0x80, 0xA9]):
        line += 1
        offset += 3
      case UInt8(ascii: "/") where next(is: Array("//".utf8)):
        while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
      case UInt8(ascii: "/") where next(is: Array("/*".utf8)):
        let (start, startLine) = (offset, line)
        offset += 2
        while !next(is: Array("*/".utf8)) {
          guard offset < bytes.count else {
            (offset, line) = (start, startLine)  // an unclosed comment: the break is where it began
            throw Unreadable()
          }
          if bytes[offset] == 0x0A { line += 1 }
          offset += 1
        }
        offset += 2
      default: return
      }
    }
  }

  private func next(is prefix: [UInt8]) -> Bool {
    offset + prefix.count <= bytes.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
  }

  /// Bytes that end a number or literal.
  private static let delimiters: Set<UInt8> = Set(",]}:/ \t\r\n\u{0B}\u{0C}".utf8).union([0xC2, 0xE2, 0xEF])
}

/// An array index in a key path.
private struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "\(intValue ?? 0)" }
  init(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}
