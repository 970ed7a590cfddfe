import Foundation
import Reports
import Synchronization

/// The daemon's log: one line per event on standard error (plays, gaps, reconnects, overruns, store errors), each
/// starting with the UTC time to the millisecond and the channel, so that `grep` and `journalctl` read it.
///
/// Threads: any thread; lines from different threads never interleave.
final class MonitorLog: Sendable {
  private let lock = Mutex(())
  private let write: @Sendable (String) -> Void
  /// Lines seen so far, also kept in memory for tests and the console (the newest `keep`).
  private let recent = Mutex<[String]>([])
  private let keep: Int

  /// - Parameter write: where a finished line goes (default: standard error).
  init(keep: Int = 200, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) })
  {
    self.keep = keep
    self.write = write
  }

  /// Writes one line: `2026-11-30T00:41:12.345Z [channel] message`.
  func line(_ message: String, channel: String? = nil, at time: Date = Date()) {
    let text = ISO8601Millis.format(time) + (channel.map { " [\($0)] " } ?? " ") + message
    recent.withLock {
      $0.append(text)
      if $0.count > keep { $0.removeFirst($0.count - keep) }
    }
    lock.withLock { _ in write(text + "\n") }
  }

  /// The newest lines, oldest first.
  var recentLines: [String] { recent.withLock { $0 } }
}
