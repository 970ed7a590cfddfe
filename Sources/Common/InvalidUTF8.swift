import Foundation

/// Where a file's bytes stop being UTF-8, for an error that names the line and the byte: a CSV saved as Latin-1 by a
/// spreadsheet, read as UTF-8 with replacement characters, would put wrong names in the catalog or the schedule.
///
/// A value type: safe to pass between threads.
package struct InvalidUTF8: Sendable, Equatable {
  /// The first byte that is not UTF-8, its offset from the start of the data, and its line (1-based).
  package let byte: UInt8
  package let offset: Int
  package let line: Int

  /// The first byte of `data` that is not UTF-8; nil when all of it is.
  package static func first(in data: Data) -> InvalidUTF8? {
    guard String(validating: data, as: UTF8.self) == nil else { return nil }
    var bytes = data.makeIterator()
    var decoder = UTF8()
    var offset = 0
    var line = 1
    while case .scalarValue(let scalar) = decoder.decode(&bytes) {
      offset += UTF8.width(scalar)
      if scalar == "\n" { line += 1 }
    }
    return InvalidUTF8(byte: data[data.startIndex + offset], offset: offset, line: line)
  }

  /// The byte as the messages write it: `0xE9`.
  package var hexByte: String { "0x" + String(byte, radix: 16, uppercase: true) }
}
