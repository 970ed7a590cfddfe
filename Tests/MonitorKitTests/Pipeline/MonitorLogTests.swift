import Foundation
import Synchronization
import Testing

@testable import MonitorKit

@Suite("MonitorLog")
struct MonitorLogTests {
  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
  }

  @Test("the JSON format writes one JSON object per line, the text format the usual line")
  func formats() throws {
    let json = Lines()
    let text = Lines()
    let jsonLog = MonitorLog(format: .json, write: { line in json.lines.withLock { $0.append(line) } })
    let textLog = MonitorLog(format: .text, write: { line in text.lines.withLock { $0.append(line) } })
    for log in [jsonLog, textLog] {
      log.line("started", channel: nil)
      log.record(
        MonitorEvent(
          time: Date(), channel: "fm", name: .gap, message: "gap: gone", fields: [("detail", .string("gone"))]))
    }
    #expect(json.all.count == 2 && json.all.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}\n") })
    let gap = try #require(try JSONSerialization.jsonObject(with: Data(json.all[1].utf8)) as? [String: Any])
    #expect(gap["event"] as? String == "gap" && gap["channel"] as? String == "fm" && gap["detail"] as? String == "gone")
    #expect(text.all[1].hasSuffix("Z [fm] gap: gone\n"))
  }

  @Test("under systemd a line has no time of its own and starts with the syslog priority of its event's kind")
  func journalFormat() {
    let lines = Lines()
    let log = MonitorLog(format: .journal, write: { line in lines.lines.withLock { $0.append(line) } })
    log.line("listening to scripted", channel: "fm")
    log.record(MonitorEvent(time: Date(), channel: "fm", name: .gap, message: "gap: gone"))
    log.record(MonitorEvent(time: Date(), channel: "fm", name: .lagging, message: "lagging: 4.2 s behind"))
    log.record(MonitorEvent(time: Date(), channel: "fm", name: .playStarted, message: "play started: \"Armygeddon\""))
    log.line("PLAYS NOT SAVED: the spool cannot be written", severity: .error)
    #expect(
      lines.all == [
        "<6>[fm] listening to scripted\n", "<4>[fm] gap: gone\n", "<4>[fm] lagging: 4.2 s behind\n",
        "<6>[fm] play started: \"Armygeddon\"\n", "<3>PLAYS NOT SAVED: the spool cannot be written\n",
      ])
  }

  @Test("the journal format is chosen under systemd (JOURNAL_STREAM or INVOCATION_ID), the timed text otherwise")
  func journalDetection() {
    #expect(MonitorLog.textFormat(environment: ["JOURNAL_STREAM": "8:12345"]) == .journal)
    #expect(MonitorLog.textFormat(environment: ["INVOCATION_ID": "0123456789abcdef"]) == .journal)
    #expect(MonitorLog.textFormat(environment: ["TERM": "xterm"]) == .text)
    let line = MonitorEvent(time: Date(timeIntervalSince1970: 0), channel: "fm", name: .gap, message: "gap: gone")
    #expect(line.textLine == "1970-01-01T00:00:00.000Z [fm] gap: gone")
  }

  @Test("held output is kept in memory only and flows again when released")
  func holding() {
    let written = Lines()
    let log = MonitorLog(write: { line in written.lines.withLock { $0.append(line) } })
    log.holdOutput()
    log.line("while the console shows")
    #expect(written.all.isEmpty)
    log.releaseOutput()
    #expect(written.all.count == 1 && written.all[0].hasSuffix(" while the console shows\n"), "replayed")
    log.line("after")
    #expect(written.all.count == 2)
    #expect(log.recentLines.count == 2)
    #expect(log.recentEvents.map(\.message) == ["while the console shows", "after"])
  }

  @Test("only the newest held lines are replayed, after a note of how many are not")
  func replayLimit() {
    let written = Lines()
    let log = MonitorLog(write: { line in written.lines.withLock { $0.append(line) } })
    log.holdOutput()
    for n in 0..<30 { log.line("held \(n)") }
    log.releaseOutput(replaying: 5)
    #expect(written.all.count == 6)
    #expect(written.all[0].contains("25 earlier events while the console was shown are not repeated"))
    #expect(written.all.last?.hasSuffix(" held 29\n") == true)
    log.holdOutput()
    log.releaseOutput()
    #expect(written.all.count == 6, "nothing held the second time, nothing replayed")
  }

  @Test("only the newest events are kept")
  func keepsNewest() {
    let log = MonitorLog(keep: 3, write: { _ in })
    for n in 0..<5 { log.line("\(n)") }
    #expect(log.recentEvents.map(\.message) == ["2", "3", "4"])
  }
}
