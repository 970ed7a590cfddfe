import Foundation
import Reports
import Synchronization

/// The daemon's log: one line per event (plays, gaps, reconnects, overruns, store errors). As text (the default),
/// each line starts with the UTC time to the millisecond and the channel, so that `grep` reads it; for the systemd
/// journal (`journalFormat(environment:)`), each line starts with its syslog priority instead of a time, which the
/// journal keeps itself; as JSON (`run --json`), each line is one object with the fields `MonitorEvent` documents.
///
/// The recent events are also kept in memory, for the console and the tests. While the console owns the terminal,
/// `holdOutput()` keeps lines off it (they are still kept in memory); `releaseOutput()` writes the newest of them
/// and lets lines through again.
///
/// Threads: any thread; lines from different threads never interleave.
final class MonitorLog: Sendable {
  enum Format: Sendable {
    case text
    /// Text for the systemd journal: `<6>[channel] message` (`MonitorEvent.journalLine`).
    case journal
    case json
  }

  /// The text format for a process started with `environment`: `journal` under systemd, whose service manager sets
  /// `JOURNAL_STREAM` when standard error goes to the journal, and `INVOCATION_ID` for every service it runs;
  /// `text` otherwise.
  static func textFormat(environment: [String: String]) -> Format {
    environment["JOURNAL_STREAM"] != nil || environment["INVOCATION_ID"] != nil ? .journal : .text
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
    write: @escaping @Sendable (String) -> Void = { StandardStream.write($0, to: STDERR_FILENO) }
  ) {
    self.format = format
    self.keep = keep
    self.write = write
  }

  /// Writes a notice for a person: `2026-11-30T00:41:12.345Z [channel] message`. `severity`: `.warning` or
  /// `.error` for a notice about a problem.
  func line(_ message: String, channel: String? = nil, at time: Date = Date(), severity: LogSeverity = .info) {
    record(MonitorEvent(time: time, channel: channel, name: .notice, message: message, severity: severity))
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
    let text = formatted(event)
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
        write(formatted(note) + "\n")
      }
      for event in events { write(formatted(event) + "\n") }
    }
  }

  /// `event` as a line in the log's format.
  func formatted(_ event: MonitorEvent) -> String {
    switch format {
    case .text: event.textLine
    case .journal: event.journalLine
    case .json: event.jsonLine
    }
  }

  /// The newest events, oldest first.
  var recentEvents: [MonitorEvent] { recent.withLock { $0.events } }

  /// The newest events as text lines, oldest first.
  var recentLines: [String] { recentEvents.map(\.textLine) }
}
