import Foundation

/// Writes CSV as RFC 4180 says: fields separated by commas, records ended by CRLF, a field quoted when it holds a
/// comma, a double quote, CR or LF, and a double quote inside a quoted field doubled. UTF-8, no byte order mark.
///
/// Spreadsheet safety: a ``CSVField/Kind/text`` cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage
/// return is prefixed with a single quote (`'=1+1`), so a spreadsheet shows it instead of running it as a formula.
/// ``CSVField/Kind/number`` cells are written verbatim.
///
/// It either builds a string in memory (``init()``, then ``text``) or writes to a file handle through a buffer
/// (``init(fileHandle:destination:bufferCapacity:)``, then ``flush()`` at the end).
///
/// Thread: one thread at a time; it is not Sendable.
package final class CSVWriter {
  /// The record separator RFC 4180 specifies.
  package static let lineEnding = "\r\n"

  private let output: RecordBuffer

  /// A writer that builds the CSV in memory; read it with ``text``.
  package init() { output = RecordBuffer() }

  /// A writer to `fileHandle`, which writes whenever `bufferCapacity` bytes are pending, and on ``flush()``.
  /// - Parameter destination: what the handle writes to (a path), for error messages.
  package init(fileHandle: FileHandle, destination: String, bufferCapacity: Int = 64 * 1024) {
    output = RecordBuffer(fileHandle: fileHandle, destination: destination, capacity: bufferCapacity)
  }

  /// Everything written so far, for a writer built with ``init()``; "" for a writer to a file.
  package var text: String { output.text }

  /// Writes one record: `fields` separated by commas, then CRLF.
  /// - Throws: ``CSVWriteError`` when writing to the file fails.
  package func writeRow(_ fields: [CSVField]) throws {
    for (index, field) in fields.enumerated() {
      if index > 0 { output.bytes.append(UInt8(ascii: ",")) }
      Self.append(field, to: &output.bytes)
    }
    try output.endRecord()
  }

  /// Writes one record already encoded by a ``ReportRowEncoder`` (style `.csv`), then CRLF.
  /// - Throws: ``CSVWriteError`` when writing to the file fails.
  package func writeEncodedRow(_ bytes: [UInt8]) throws {
    output.bytes.append(contentsOf: bytes)
    try output.endRecord()
  }

  /// Writes a header record: each name as a text cell.
  package func writeHeader(_ names: [String]) throws {
    try writeRow(names.map(CSVField.text))
  }

  /// Writes what is pending to the file. Call it once at the end: nothing is written when the writer is dropped.
  /// Does nothing for an in-memory writer.
  /// - Throws: ``CSVWriteError`` when writing fails.
  package func flush() throws { try output.flush() }

  /// One field as it appears in a record: neutralized if it is text that looks like a formula, quoted if needed.
  package static func encode(_ field: CSVField) -> String {
    var bytes: [UInt8] = []
    append(field, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `text` with a single quote in front when it begins like a formula (see the type's comment), else unchanged.
  package static func neutralized(_ text: String) -> String {
    looksLikeFormula(text) ? "'" + text : text
  }

  /// The characters that make a spreadsheet read a cell as a formula (or hide one): `=`, `+`, `-`, `@`, tab, CR.
  private static func looksLikeFormula(_ text: String) -> Bool {
    switch text.utf8.first {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"),
      UInt8(ascii: "\r"):
      true
    default:
      false
    }
  }

  private static func append(_ field: CSVField, to bytes: inout [UInt8]) {
    let value = field.value.utf8
    let needsQuotes = value.contains { byte in
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\n")
    }
    if needsQuotes { bytes.append(UInt8(ascii: "\"")) }
    if field.kind == .text && looksLikeFormula(field.value) { bytes.append(UInt8(ascii: "'")) }
    for byte in value {
      if byte == UInt8(ascii: "\"") { bytes.append(byte) }
      bytes.append(byte)
    }
    if needsQuotes { bytes.append(UInt8(ascii: "\"")) }
  }
}

@available(*, unavailable, message: "a CSVWriter is used by one thread at a time")
extension CSVWriter: Sendable {}
