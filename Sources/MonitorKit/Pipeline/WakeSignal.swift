import Common
import Foundation

/// A pipe (a socket pair) that one thread polls (`pollDescriptor`) and another writes to (`signal()`) to wake it from `poll(2)`, so
/// that `StreamInput.stop()` interrupts its reader thread at once, whether it is waiting for ffmpeg's output or
/// sleeping between reconnection attempts.
///
/// Threads: `signal()` from any thread; `pollDescriptor` is for the one thread that waits. Both ends are
/// close-on-exec (no ffmpeg child inherits them) and non-blocking. The descriptors are closed when the value is
/// released, which must be after the waiting thread has finished.
final class WakeSignal: Sendable {
  /// The read end, to put into a `pollfd` with `POLLIN`. It stays readable once signalled.
  let pollDescriptor: Int32
  private let writeDescriptor: Int32

  /// - Throws: `StreamInputError.systemResources` when no pipe can be made (too many open files).
  init() throws(StreamInputError) {
    do {
      (pollDescriptor, writeDescriptor) = try FFmpegProcess.makePipe()
    } catch {
      throw .systemResources("cannot create a pipe: \(error)")
    }
    _ = fcntl(writeDescriptor, F_SETFL, fcntl(writeDescriptor, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(pollDescriptor)
    close(writeDescriptor)
  }

  /// Makes `pollDescriptor` readable. Never blocks: when the pipe is already full it is readable anyway.
  func signal() {
    var byte: UInt8 = 1
    _ = send(writeDescriptor, &byte, 1, Int32(MSG_NOSIGNAL))
  }
}
