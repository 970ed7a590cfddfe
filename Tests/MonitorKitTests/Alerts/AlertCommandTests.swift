import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("AlertCommand")
struct AlertCommandTests {
  @Test("the command gets the alert in its environment and as JSON on its standard input")
  func environmentAndInput() throws {
    let folder = try TemporaryDirectory(prefix: "alert-command")
    let out = folder.file("out.txt").path
    let command = AlertCommand(
      command: "{ echo \"$BM_ALERT_EVENT|$BM_ALERT_KIND|$BM_ALERT_CHANNEL|$BM_ALERT_START|$BM_ALERT_END\"; cat; } > "
        + out, timeoutSeconds: 5, log: MonitorLog { _ in })
    var event = AlertWebhookTests.event
    event.opened = false
    event.end = event.start.addingTimeInterval(42)
    command.deliver(event)
    #expect(command.stop(waitingSeconds: 10) == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(
      text == "alert_closed|silence|fm|2027-01-15T08:00:00.000Z|2027-01-15T08:00:42.000Z\n"
        + event.monitorEvent.jsonLine + "\n")
  }

  @Test("a command that runs too long is stopped and logged; deliver never waits for it")
  func timeout() throws {
    let lines = LogLines()
    let command = AlertCommand(command: "sleep 30", timeoutSeconds: 0.5, log: lines.log)
    let started = Date()
    command.deliver(AlertWebhookTests.event)
    command.deliver(AlertWebhookTests.event)
    #expect(Date().timeIntervalSince(started) < 0.5)
    #expect(AlertWebhookTests.waitUntil(seconds: 20) { lines.text.components(separatedBy: "ran longer").count == 3 })
    #expect(lines.text.contains("alerts.command `sleep 30` ran longer than 0.5 s for the silence alert"))
    #expect(command.stop(waitingSeconds: 1) == 0)
  }

  /// A command whose shell ends at SIGTERM while a program it started ignores it, and the file where the command
  /// writes that program's process ID.
  static func stubbornChild(in folder: TemporaryDirectory) -> (command: String, pidFile: String) {
    let pidFile = folder.file("child.pid").path
    return ("(trap '' TERM; exec sleep 30) & echo $! > \(pidFile); wait", pidFile)
  }

  /// The process ID written to `path`, once it is there.
  static func pid(in path: String) -> pid_t? {
    var pid: pid_t?
    _ = AlertWebhookTests.waitUntil(seconds: 10) {
      pid = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
        pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      return pid != nil
    }
    return pid
  }

  /// Whether `pid` runs (a zombie is not running).
  static func isRunning(_ pid: pid_t) -> Bool { ProcessTable.status(of: pid).map { $0.state != "Z" } ?? false }

  @Test("a command that runs too long is killed with what it started, even what ignores SIGTERM after its shell ended")
  func timeoutKillsTheGroup() throws {
    let folder = try TemporaryDirectory(prefix: "alert-command-group")
    let (script, pidFile) = Self.stubbornChild(in: folder)
    let lines = LogLines()
    let command = AlertCommand(command: script, timeoutSeconds: 0.5, log: lines.log)
    command.deliver(AlertWebhookTests.event)
    let child = try #require(Self.pid(in: pidFile))
    #expect(AlertWebhookTests.waitUntil(seconds: 10) { lines.text.contains("ran longer than 0.5 s") })
    #expect(AlertWebhookTests.waitUntil(seconds: 5) { !Self.isRunning(child) }, "sleep 30 (pid \(child)) runs on")
    #expect(command.stop(waitingSeconds: 1) == 0)
  }

  @Test("a command still running when the monitor stops is stopped with what it started, and logged")
  func stopKillsTheGroup() throws {
    let folder = try TemporaryDirectory(prefix: "alert-command-stop")
    let (script, pidFile) = Self.stubbornChild(in: folder)
    let lines = LogLines()
    let command = AlertCommand(command: script, timeoutSeconds: 60, log: lines.log)
    command.deliver(AlertWebhookTests.event)
    let child = try #require(Self.pid(in: pidFile))
    let stopping = Date()
    #expect(command.stop(waitingSeconds: 0.2) == 0)
    #expect(Date().timeIntervalSince(stopping) < 3)
    #expect(AlertWebhookTests.waitUntil(seconds: 5) { !Self.isRunning(child) }, "sleep 30 (pid \(child)) runs on")
    #expect(lines.text.contains("was still running for the silence alert when the monitor stopped, and was stopped"))
  }
}
