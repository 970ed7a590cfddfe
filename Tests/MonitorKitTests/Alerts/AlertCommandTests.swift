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
}
