import Foundation

/// Writes to standard output or standard error with `write(2)`, reporting a failure instead of trapping (Foundation's
/// `FileHandle.write(_:)` traps on an error): a daemon whose log reader went away (`run --json | jq` ended, a journal
/// stream broken) writes on, its lines dropped, and `run` ignores SIGPIPE so that such a write fails instead of
/// ending the process.
///
/// Thread: any.
enum StandardStream {
  /// Writes all of `text` to `descriptor` (`STDOUT_FILENO`, `STDERR_FILENO`); false when it could not (a closed
  /// pipe, a full disk under a redirect).
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }
}
