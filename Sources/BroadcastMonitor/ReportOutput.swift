import Foundation
import Reports

/// Where a report goes: standard output, or a file written in place only when complete (`FILE.partial`, renamed
/// to `FILE` at the end), so an interrupted report never leaves a truncated CSV under the real name. Counts the
/// rows written.
///
/// Thread: the command's (main) thread.
final class ReportOutput {
  private let path: String?
  private let partialPath: String?
  private let handle: FileHandle
  private let writer: any ReportRowSink & AnyObject
  private let flushWriter: () throws -> Void
  /// The sink the report writes to; counts rows, header included.
  private(set) var sink: CountingRowSink!

  /// Records written so far, the header included.
  var rows: Int { sink.rows }

  init(path: String?, pipeDelimited: Bool) throws {
    self.path = path
    if let path {
      let partial = path + ".partial"
      guard FileManager.default.createFile(atPath: partial, contents: nil) else {
        throw UsageError("cannot create \(partial): check that the folder exists and is writable")
      }
      partialPath = partial
      handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
    } else {
      partialPath = nil
      handle = FileHandle.standardOutput
    }
    let destination = path ?? "standard output"
    if pipeDelimited {
      let pipe = PipeDelimitedWriter(fileHandle: handle, destination: destination)
      writer = pipe
      flushWriter = pipe.flush
    } else {
      let csv = CSVWriter(fileHandle: handle, destination: destination)
      writer = csv
      flushWriter = csv.flush
    }
    sink = CountingRowSink(writer)
  }

  /// Writes what is pending and, for a file, syncs it and gives it its real name.
  func finish() throws {
    try flushWriter()
    guard let path, let partialPath else { return }
    do {
      try handle.synchronize()
      try handle.close()
      if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
      try FileManager.default.moveItem(atPath: partialPath, toPath: path)
    } catch {
      throw CSVWriteError(destination: path, reason: error.localizedDescription)
    }
  }
}
