import Common
import Foundation
import Reports
import Synchronization

/// Runs `alerts.command` for each alert opened or closed, one at a time, on its own thread: `/bin/sh -c COMMAND`
/// with the alert in its environment (`BM_ALERT_EVENT` = `alert_opened` or `alert_closed`, `BM_ALERT_KIND`,
/// `BM_ALERT_CHANNEL` (empty for the monitor's own), `BM_ALERT_START`, `BM_ALERT_END` (empty while open),
/// `BM_ALERT_DETAIL`) and as JSON on its standard input (the `run --json` object). A command still running after
/// `timeoutSeconds`, or when the monitor stops, is killed with what it started (SIGTERM to its process group, then
/// SIGKILL to what is left a second later) and logged; a command that fails is logged, not retried. At most
/// `capacity` alerts wait; beyond, the oldest is dropped (and logged).
///
/// Threads: `deliver` from any thread; `stop` from the control thread.
final class AlertCommand: AlertDelivery, @unchecked Sendable {
  /// Alerts waiting at most: a command slower than the alerts come is a mistake to report, not to queue forever.
  static let capacity = 100

  let command: String
  let timeoutSeconds: Double
  private let log: MonitorLog
  private let queue = Mutex<[AlertEvent]>([])
  private let wake = DispatchSemaphore(value: 0)
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  /// The command running now.
  private let running = Mutex<pid_t?>(nil)

  init(command: String, timeoutSeconds: Double, log: MonitorLog) {
    self.command = command
    self.timeoutSeconds = timeoutSeconds
    self.log = log
    let thread = Thread { [self] in run() }
    thread.name = "alert-command"
    thread.start()
  }

  func deliver(_ event: AlertEvent) {
    let dropped = queue.withLock { queue -> Bool in
      queue.append(event)
      guard queue.count > Self.capacity else { return false }
      queue.removeFirst()
      return true
    }
    if dropped { log.line("alerts.command: \(Self.capacity) alerts wait already; the oldest is dropped") }
    wake.signal()
  }

  func stop(waitingSeconds seconds: Double) -> Int {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline, queue.withLock({ !$0.isEmpty }) || running.withLock({ $0 != nil }) {
      Thread.sleep(forTimeInterval: 0.05)
    }
    stopping.store(true, ordering: .releasing)  // a command still running is stopped (`stopGroup`) within 1 s
    wake.signal()
    _ = finished.wait(timeout: .now() + 2)
    return queue.withLock { $0.count }
  }

  private func run() {
    while true {
      wake.wait()
      if stopping.load(ordering: .acquiring) { break }
      while !stopping.load(ordering: .acquiring), let event = queue.withLock({ $0.first }) {
        execute(event)
        queue.withLock { if !$0.isEmpty { $0.removeFirst() } }
      }
    }
    finished.signal()
  }

  /// The environment the command sees besides the monitor's own.
  static func environment(for event: AlertEvent) -> [String: String] {
    [
      "BM_ALERT_EVENT": event.opened ? "alert_opened" : "alert_closed",
      "BM_ALERT_KIND": event.kind.rawValue,
      "BM_ALERT_CHANNEL": event.channel ?? "",
      "BM_ALERT_START": ISO8601Millis.format(event.start),
      "BM_ALERT_END": event.end.map { ISO8601Millis.format($0) } ?? "",
      "BM_ALERT_DETAIL": event.detail,
    ]
  }

  private func execute(_ event: AlertEvent) {
    let pid: pid_t
    do {
      pid = try spawn(event)
    } catch {
      log.line("alerts.command `\(command)` could not start: \(error)", channel: event.channel)
      return
    }
    running.withLock { $0 = pid }
    defer { running.withLock { $0 = nil } }
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    let status = wait(pid, until: deadline, orMonitorStop: true)
    if status == nil {
      let timedOut = Date() >= deadline
      stopGroup(of: pid)
      log.line(
        "alerts.command `\(command)` "
          + (!timedOut
            ? "was still running for the \(event.kind.rawValue) alert when the monitor stopped, and was stopped"
            : "ran longer than \(timeoutSeconds) s for the \(event.kind.rawValue) alert and was stopped; make it "
              + "return at once (start long work in the background)"),
        channel: event.channel)
      return
    }
    if let status, status != 0 {
      log.line(
        "alerts.command `\(command)` failed (\(status > 0 ? "exit status \(status)" : "signal \(-status)")) for "
          + "the \(event.kind.rawValue) alert", channel: event.channel)
    }
  }

  /// Starts `/bin/sh -c command` in its own process group, with default signal handling, the alert in its
  /// environment and on its standard input (written before it starts, far smaller than a socket's buffer, so that
  /// a command that never reads cannot block the monitor or end it with SIGPIPE), standard output discarded and
  /// standard error shared with the monitor's (a command's complaint reaches the log).
  private func spawn(_ event: AlertEvent) throws -> pid_t {
    let input = try FFmpegProcess.makePipe()
    defer {
      close(input.read)
      close(input.write)
    }
    let json = Array((event.monitorEvent.jsonLine + "\n").utf8)
    _ = json.withUnsafeBytes { send(input.read, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    shutdown(input.read, Int32(SHUT_WR))

    return try FFmpegProcess.spawn(
      executable: "/bin/sh", arguments: ["-c", command],
      environment: FFmpegProcess.inheritedEnvironment.merging(Self.environment(for: event)) { $1 }
    ) { files in
      posix_spawn_file_actions_adddup2(&files, input.write, 0)
      posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0)
    }
  }

  /// Stops the process group that `pid` leads (the shell and what it started): SIGTERM, then SIGKILL to whatever of
  /// the group is left a second later, and reaps `pid`. The shell may end at SIGTERM while a program it started
  /// ignores it (dash runs a script's commands in children of its own), so the group is killed even when `pid` is
  /// gone; a group with no process left is not signalled again.
  private func stopGroup(of pid: pid_t) {
    kill(-pid, SIGTERM)
    let deadline = Date().addingTimeInterval(1)
    let status = wait(pid, until: deadline)
    while status != nil && kill(-pid, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if kill(-pid, 0) == 0 { kill(-pid, SIGKILL) }
    if status == nil { _ = wait(pid, until: .distantFuture) }
  }

  /// Reaps `pid` by `deadline` (or, with `orMonitorStop`, until `stop` gives up waiting for it): its exit status (the
  /// signal's number, negated, when a signal ended it), nil while it runs.
  private func wait(_ pid: pid_t, until deadline: Date, orMonitorStop: Bool = false) -> Int32? {
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        let signal = status & 0x7f  // WIFEXITED / WEXITSTATUS / WTERMSIG, not imported from the C macros
        return signal == 0 ? (status >> 8) & 0xff : -signal
      }
      if result < 0 && errno != EINTR { return 0 }  // ECHILD: reaped elsewhere; it is gone
      if Date() >= deadline || (orMonitorStop && stopping.load(ordering: .acquiring)) { return nil }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }
}
