import Foundation
import Reports
import Synchronization

/// The daemon's log: one line per event (plays, gaps, reconnects, overruns, store errors). As text (the default),
/// each line starts with the UTC time to the millisecond and the channel, so that `grep` and `journalctl` read it;
/// as JSON (`run --json`), each line is one object with the fields `MonitorEvent` documents.
///
/// The recent events are also kept in memory, for the console and the tests. While the console owns the terminal,
/// `holdOutput()` keeps lines off it (they are still kept in memory); `releaseOutput()` writes the newest of them
/// and lets lines through again.
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
  private let recent = Mutex<(events: [MonitorEvent], heldCount: Int)>(([], 0))
  private let keep: Int
  private let held = Atomic<Bool>(false)
  /// Receivers of every event (the HTTP API's event streams), by subscription number.
  private let subscribers = Mutex<(next: Int, receivers: [Int: @Sendable (MonitorEvent) -> Void])>((0, [:]))

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
    let isHeld = held.load(ordering: .acquiring)
    recent.withLock {
      $0.events.append(event)
      if $0.events.count > keep { $0.events.removeFirst($0.events.count - keep) }
      if isHeld { $0.heldCount += 1 }
    }
    for receive in subscribers.withLock({ Array($0.receivers.values) }) { receive(event) }
    guard !isHeld else { return }
    let text = format == .json ? event.jsonLine : event.textLine
    lock.withLock { _ in write(text + "\n") }
  }

  /// Calls `receive` with every event recorded from now on, on the thread that records it, until `unsubscribe`:
  /// `receive` must return at once (queue the event, never wait). Returns the subscription's number. Any thread.
  func subscribe(_ receive: @escaping @Sendable (MonitorEvent) -> Void) -> Int {
    subscribers.withLock {
      $0.next += 1
      $0.receivers[$0.next] = receive
      return $0.next
    }
  }

  /// Ends subscription `number`: no event recorded after this returns reaches its `receive` (one being recorded on
  /// another thread at that moment may). Any thread.
  func unsubscribe(_ number: Int) {
    _ = subscribers.withLock { $0.receivers.removeValue(forKey: number) }
  }

  /// Keeps lines off the output until `releaseOutput()` (they are still recorded). Any thread.
  func holdOutput() { held.store(true, ordering: .releasing) }

  /// Lets lines through to the output again, after writing the newest `replaying` of the lines held back (with a
  /// note of how many earlier ones are not repeated). Any thread.
  func releaseOutput(replaying: Int = 20) {
    held.store(false, ordering: .releasing)
    let (events, count) = recent.withLock { state -> ([MonitorEvent], Int) in
      defer { state.heldCount = 0 }
      return (Array(state.events.suffix(min(state.heldCount, replaying))), state.heldCount)
    }
    guard count > 0 else { return }
    lock.withLock { _ in
      if count > events.count {
        let note = MonitorEvent(
          time: Date(), channel: nil, name: .notice,
          message: "\(count - events.count) earlier events while the console was shown are not repeated here "
            + "(plays and events are in the play log)")
        write((format == .json ? note.jsonLine : note.textLine) + "\n")
      }
      for event in events { write((format == .json ? event.jsonLine : event.textLine) + "\n") }
    }
  }

  /// The newest events, oldest first.
  var recentEvents: [MonitorEvent] { recent.withLock { $0.events } }

  /// The newest events as text lines, oldest first.
  var recentLines: [String] { recentEvents.map(\.textLine) }
}
