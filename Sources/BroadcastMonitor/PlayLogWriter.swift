import Foundation
import Reports
import Synchronization

/// The monitor's one writer to the play log: channel workers hand it plays and events, its own thread writes them,
/// in order, each in its own synced transaction.
///
/// A play row is written as soon as the matcher recognizes the play (status `open`) and moved forward as it
/// continues, so a crash loses at most the last progress interval of its end time, never the play. When the store
/// cannot be written (a full disk, a read-only or locked file), the error is logged once with the file and the
/// cause, the commands wait in memory in their order, and the writer retries every `retrySeconds` until the store is
/// writable again: nothing is lost or written twice.
///
/// Threads: `submit` from any thread; `stop()` from the control thread. The store is used by the writer's thread
/// only, after `init` hands it over.
final class PlayLogWriter: @unchecked Sendable {
  /// What a channel asks the writer to do. `token` identifies a play across its commands (unique per writer).
  enum Command: Sendable {
    case start(token: UInt64, play: PlayRecord)
    case update(
      token: UInt64, start: Date, end: Date, refOffsetSeconds: Double, speed: Double, confidence: Double, closed: Bool)
    case retract(token: UInt64)
    case event(channel: String?, kind: EventKind, start: Date, end: Date?, detail: String)
  }

  private let store: PlayLogStore
  private let log: MonitorLog
  private let retrySeconds: Double
  private let pending = Mutex<[Command]>([])
  private let wake = DispatchSemaphore(value: 0)
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  private let nextToken = Atomic<UInt64>(1)
  private let failing = Atomic<Bool>(false)
  // Writer thread only.
  private var rowIDs: [UInt64: Int64] = [:]
  private var lastError: String?

  /// Takes over `store` (opened by the caller, so that a store that cannot be opened stops the start).
  init(store: PlayLogStore, log: MonitorLog, retrySeconds: Double = 1) {
    self.store = store
    self.log = log
    self.retrySeconds = retrySeconds
    let thread = Thread { [unowned self] in self.run() }
    thread.name = "play-log-writer"
    thread.start()
  }

  /// A fresh play token. Any thread.
  func makeToken() -> UInt64 { nextToken.wrappingAdd(1, ordering: .relaxed).oldValue }

  /// Queues a command. Any thread; never blocks on the database.
  func submit(_ command: Command) {
    pending.withLock { $0.append(command) }
    wake.signal()
  }

  /// Commands waiting to be written (more than a handful only while the store is failing). Any thread.
  var backlog: Int { pending.withLock { $0.count } }

  /// True while the last write failed and commands are waiting for the store. Any thread.
  var isFailing: Bool { failing.load(ordering: .relaxed) }

  /// Writes everything queued, then closes the store. If the store stays unwritable for `timeoutSeconds`, gives up
  /// and returns the commands it could not write (the caller prints them so they are not lost). Control thread.
  func stop(timeoutSeconds: Double = 30) -> [Command] {
    stopping.store(true, ordering: .releasing)
    wake.signal()
    if finished.wait(timeout: .now() + timeoutSeconds) == .timedOut {
      return pending.withLock { $0 }
    }
    return []
  }

  private func run() {
    while true {
      wake.wait()
      while let command = pending.withLock({ $0.first }) {
        if write(command) {
          _ = pending.withLock { $0.removeFirst() }
        } else {
          Thread.sleep(forTimeInterval: retrySeconds)
          if stopping.load(ordering: .acquiring) && pending.withLock({ $0.isEmpty }) { break }
        }
      }
      if stopping.load(ordering: .acquiring) && pending.withLock({ $0.isEmpty }) { break }
    }
    try? store.close()
    finished.signal()
  }

  /// Writes one command; false when the store failed (logged once per distinct error).
  private func write(_ command: Command) -> Bool {
    do {
      switch command {
      case .start(let token, let play):
        // A retry first looks for the play: the failed attempt may have been committed after all.
        if failing.load(ordering: .relaxed), let recorded = try store.recordedPlayID(matching: play) {
          rowIDs[token] = recorded
        } else {
          rowIDs[token] = try store.record(play)
        }
      case .update(let token, let start, let end, let refOffsetSeconds, let speed, let confidence, let closed):
        guard let row = rowIDs[token] else { return true }  // its start was retracted or never recognized
        try store.update(
          playID: row, start: start, end: end, refOffsetSeconds: refOffsetSeconds, speed: speed,
          confidence: confidence, status: closed ? .closed : .open)
        if closed { rowIDs[token] = nil }
      case .retract(let token):
        guard let row = rowIDs.removeValue(forKey: token) else { return true }
        try store.retract(playID: row)
      case .event(let channel, let kind, let start, let end, let detail):
        try store.recordEvent(channel: channel, kind: kind, start: start, end: end, detail: detail)
      }
    } catch let error as PlayLogError {
      // A value the store refuses is a bug, not an outage: retrying cannot help. Log it and go on.
      log.line("play log refused a write and skipped it: \(error)")
      return true
    } catch {
      var message = "\(error)"
      if let diagnosis = (error as? SQLiteError)?.fileDiagnosis { message = "\(diagnosis). \(message)" }
      if message != lastError {
        lastError = message
        log.line(
          "play log \(store.path) cannot be written: \(message). Plays wait in memory and are written as soon as "
            + "it can be (free disk space, fix permissions, or stop the other program holding the lock).")
      }
      failing.store(true, ordering: .relaxed)
      return false
    }
    if failing.load(ordering: .relaxed) {
      failing.store(false, ordering: .relaxed)
      lastError = nil
      log.line("play log \(store.path) is writable again; \(backlog - 1) waiting writes follow")
    }
    return true
  }
}
