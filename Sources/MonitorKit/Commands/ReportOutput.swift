import Common
import Foundation
import Matcher
import Reports

/// Where a report goes: standard output, or a file written in place only when complete (`FILE.partial`, renamed
/// to `FILE` at the end), so an interrupted report never leaves a truncated CSV under the real name. A name that
/// is not a regular file (/dev/null, /dev/stdout, a FIFO) is written directly, never replaced (`OutputFile`). A
/// report that fails before ``finish()`` renames it (a full disk, an error reading the play log) leaves no file: the
/// output, let go unfinished, removes its partial file. Counts the rows written.
///
/// Thread: the command's (main) thread.
final class ReportOutput {
  /// The file the partial one becomes at the end; nil for standard output and for a name written in place.
  private let finalPath: String?
  /// The file being written until it is renamed; nil for standard output, a name written in place, and once renamed.
  private var partialPath: String?
  private let handle: FileHandle
  private let writer: any ReportRowSink & AnyObject
  private let flushWriter: () throws -> Void
  /// The sink the report writes to; counts rows, header included.
  private(set) var sink: CountingRowSink!

  /// Records written so far, the header included.
  var rows: Int { sink.rows }

  init(path: String?, pipeDelimited: Bool) throws {
    if let path, OutputFile.isSpecial(path) {
      finalPath = nil
      partialPath = nil
      handle = try OutputFile.openInPlace(path)
    } else if let path {
      let final = OutputFile.replaceablePath(path)
      finalPath = final
      partialPath = final + ".partial"
      handle = try OutputFile.openInPlace(final + ".partial")
      OutputFile.keepAccess(of: final, on: handle.fileDescriptor)
    } else {
      finalPath = nil
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
    guard let finalPath, let partialPath else { return }
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      throw CSVWriteError(destination: finalPath, reason: error.localizedDescription)
    }
    // POSIX rename replaces the old file in one step.
    guard rename(partialPath, finalPath) == 0 else {
      throw CSVWriteError(destination: finalPath, reason: String(cString: strerror(errno)))
    }
    self.partialPath = nil
  }

  deinit {
    guard let partialPath else { return }
    try? handle.close()
    unlink(partialPath)
  }
}
