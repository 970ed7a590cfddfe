import Foundation

/// The records of a text table on their way to a file, or kept in memory: a writer appends a record's bytes to
/// `bytes` and ends it with ``endRecord()``, which writes to the file whenever `capacity` bytes are pending. Shared by
/// ``CSVWriter`` and ``PipeDelimitedWriter``, which differ only in how a record is encoded.
///
/// Thread: its writer's.
final class RecordBuffer {
  private let fileHandle: FileHandle?
  private let destination: String
  private let capacity: Int
  /// Pending bytes (everything, in memory).
  var bytes: [UInt8] = []

  /// In memory: nothing is written anywhere; read it with ``text``.
  init() {
    fileHandle = nil
    destination = "memory"
    capacity = .max
  }

  /// To `fileHandle`; `destination` (a path) names it in error messages.
  init(fileHandle: FileHandle, destination: String, capacity: Int) {
    self.fileHandle = fileHandle
    self.destination = destination
    self.capacity = max(capacity, 1)
    bytes.reserveCapacity(min(self.capacity, 1 << 20))
  }

  /// Everything written so far when in memory; "" for a buffer to a file.
  var text: String { fileHandle == nil ? String(decoding: bytes, as: UTF8.self) : "" }

  /// Ends a record with CRLF (RFC 4180's separator, which the pipe-delimited format uses too).
  /// - Throws: ``CSVWriteError`` when writing to the file fails.
  func endRecord() throws {
    bytes.append(contentsOf: CSVWriter.lineEnding.utf8)
    if bytes.count >= capacity { try flush() }
  }

  /// Writes what is pending to the file; does nothing in memory.
  /// - Throws: ``CSVWriteError`` when writing fails.
  func flush() throws {
    guard let fileHandle, !bytes.isEmpty else { return }
    do {
      try fileHandle.write(contentsOf: bytes)
    } catch {
      throw CSVWriteError(destination: destination, reason: error.localizedDescription)
    }
    bytes.removeAll(keepingCapacity: true)
  }
}
