import Foundation

/// Writes a table as pipe-delimited text, the plain variant SoundExchange accepts for a Report of Use: fields
/// separated by `|`, records ended by CRLF, UTF-8, no quoting. The format cannot escape, so a `|`, CR, LF or tab
/// inside a field becomes a space. Nothing else changes: no spreadsheet opens this format, and SoundExchange
/// matches titles and artists as written, so a title that begins with `=` or `-` stays as it is (the CSV reports
/// neutralise formulas instead).
///
/// Thread: one thread at a time; it is not Sendable.
package final class PipeDelimitedWriter: ReportRowSink {
  private let output: RecordBuffer

  /// A writer that builds the text in memory; read it with ``text``.
  package init() { output = RecordBuffer() }

  /// A writer to `fileHandle`; call ``flush()`` at the end.
  package init(fileHandle: FileHandle, destination: String) {
    output = RecordBuffer(fileHandle: fileHandle, destination: destination, capacity: 64 * 1024)
  }

  /// Everything written so far, for a writer built with ``init()``; "" for a writer to a file.
  package var text: String { output.text }

  package func writeRow(_ fields: [CSVField]) throws {
    for (index, field) in fields.enumerated() {
      if index > 0 { output.bytes.append(UInt8(ascii: "|")) }
      for byte in field.value.utf8 {
        switch byte {
        case UInt8(ascii: "|"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"):
          output.bytes.append(UInt8(ascii: " "))
        default:
          output.bytes.append(byte)
        }
      }
    }
    try output.endRecord()
  }

  package var rowStyle: ReportRowEncoder.Style { .pipe }

  package func writeEncodedRow(_ bytes: [UInt8]) throws {
    output.bytes.append(contentsOf: bytes)
    try output.endRecord()
  }

  /// Writes what is pending to the file.
  package func flush() throws { try output.flush() }
}

@available(*, unavailable, message: "a PipeDelimitedWriter is used by one thread at a time")
extension PipeDelimitedWriter: Sendable {}
