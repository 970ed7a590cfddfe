import Foundation
import Reports
import Synchronization

/// The daemon's log: one line per event (plays, gaps, reconnects, overruns, store errors). As text (the default),
/// each line starts with the UTC time to the millisecond and the channel, so that `grep` and `journalctl` read it;
/// as JSON (`run --json`), each line is one object with the fields `MonitorEvent` documents.
///
/// The recent events are also kept in memory, for the console and the tests. While the console owns the terminal,
/// `holdOutput()` keeps lines off it (they are still kept in memory); `releaseOutput()` lets them through again.
///
/// Threads: any thread; lines from different threads never interleave.
final class MonitorLog: Sendable {
  enum Format: Sendable {
    case text
    case json
  }

  let format: Format
  private let lock = Mutex(())
  private let write: @Sendable (String) -> Void
  private let recent = Mutex<[MonitorEvent]>([])
  private let keep: Int
  private let held = Atomic<Bool>(false)

  /// - Parameters:
  ///   - keep: how many recent events stay in memory.
  ///   - write: where a finished line goes (default: standard error).
  init(
    format: Format = .text, keep: Int = 500,
    write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.format = format
    self.keep = keep
    self.write = write
  }

  /// Writes a notice for a person: `2026-11-30T00:41:12.345Z [channel] message`.
  func line(_ message: String, channel: String? = nil, at time: Date = Date()) {
    record(MonitorEvent(time: time, channel: channel, name: .notice, message: message))
  }

  /// Writes `event` as a line in the log's format and keeps it among the recent events.
  func record(_ event: MonitorEvent) {
    recent.withLock {
      $0.append(event)
      if $0.count > keep { $0.removeFirst($0.count - keep) }
    }
    guard !held.load(ordering: .acquiring) else { return }
    let text = format == .json ? event.jsonLine : event.textLine
    lock.withLock { _ in write(text + "\n") }
  }

  /// Keeps lines off the output until `releaseOutput()` (they are still recorded). Any thread.
  func holdOutput() { held.store(true, ordering: .releasing) }

  /// Lets lines through to the output again. Any thread.
  func releaseOutput() { held.store(false, ordering: .releasing) }

  /// The newest events, oldest first.
  var recentEvents: [MonitorEvent] { recent.withLock { $0 } }

  /// The newest events as text lines, oldest first.
  var recentLines: [String] { recentEvents.map(\.textLine) }
}
