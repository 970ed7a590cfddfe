import Foundation
import Testing

@testable import Reports

@Suite("PlayLogStore alerts")
struct PlayLogStoreAlertsTests {
  static let start = ISO8601Millis.parse("2026-01-15T10:00:00Z")!

  private func rows(_ path: String) throws -> [AlertRecord] {
    let reader = try PlayLogReader(path: path)
    return try reader.alerts(fromMilliseconds: .min, toMilliseconds: .max)
  }

  @Test("An alert opened and closed is one row with its span, in a play log opened again")
  func openThenClose() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      do {
        let store = try PlayLogStore(path: path)
        #expect(try store.openAlert(channel: "fm1", kind: "silence", start: Self.start, detail: "below -50 dBFS"))
        try store.close()
      }
      #expect(
        try rows(path) == [
          AlertRecord(channel: "fm1", kind: "silence", start: Self.start, end: nil, detail: "below -50 dBFS")
        ])
      let store = try PlayLogStore(path: path)
      let end = Self.start.addingTimeInterval(42.5)
      try store.closeAlert(channel: "fm1", kind: "silence", start: Self.start, end: end, detail: "below -50 dBFS")
      #expect(
        try rows(path) == [
          AlertRecord(channel: "fm1", kind: "silence", start: Self.start, end: end, detail: "below -50 dBFS")
        ])
    }
  }

  @Test("A report's span lists the alerts that overlap it: not one that ended as it begins, but one that begins then")
  func overlappingSpan() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      let end = Self.start.addingTimeInterval(60)
      try store.openAlert(channel: "fm1", kind: "silence", start: Self.start, detail: "quiet")
      try store.closeAlert(channel: "fm1", kind: "silence", start: Self.start, end: end, detail: "quiet")
      try store.openAlert(channel: "fm2", kind: "silence", start: end, detail: "quiet")
      try store.closeAlert(channel: "fm2", kind: "silence", start: end, end: end, detail: "quiet")
      try store.close()
      let reader = try PlayLogReader(path: path)
      let from = end.millisecondsSince1970
      let listed = try reader.alerts(fromMilliseconds: from, toMilliseconds: from + 3_600_000).map(\.channel)
      #expect(listed == ["fm2"])
      let before = try reader.alerts(fromMilliseconds: from - 1, toMilliseconds: from + 3_600_000).map(\.channel)
      #expect(before == ["fm1", "fm2"])
    }
  }

  @Test("Writing an alert's opening and closing again (a retry, the spool's replay) adds no row")
  func idempotent() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      let end = Self.start.addingTimeInterval(20)
      for _ in 0..<2 {
        try store.openAlert(channel: nil, kind: "play_log_unwritable", start: Self.start, detail: "disk full")
        try store.openAlert(channel: "fm1", kind: "silence", start: Self.start, detail: "quiet")
      }
      #expect(try !store.openAlert(channel: nil, kind: "play_log_unwritable", start: Self.start, detail: "again"))
      for _ in 0..<2 {
        try store.closeAlert(channel: nil, kind: "play_log_unwritable", start: Self.start, end: end, detail: "done")
      }
      // The closing comes again from the spool after the opening: the row keeps its end.
      try store.openAlert(channel: nil, kind: "play_log_unwritable", start: Self.start, detail: "disk full")
      #expect(
        try rows(path) == [
          AlertRecord(channel: nil, kind: "play_log_unwritable", start: Self.start, end: end, detail: "done"),
          AlertRecord(channel: "fm1", kind: "silence", start: Self.start, end: nil, detail: "quiet"),
        ])
    }
  }

  @Test("A closing whose opening was lost adds the alert closed")
  func closeWithoutOpen() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      let end = Self.start.addingTimeInterval(11)
      try store.closeAlert(channel: "am", kind: "source_down", start: Self.start, end: end, detail: "refused")
      #expect(
        try rows(path) == [
          AlertRecord(channel: "am", kind: "source_down", start: Self.start, end: end, detail: "refused")
        ])
      #expect(throws: PlayLogError.self) {
        try store.closeAlert(
          channel: "am", kind: "silence", start: end, end: Self.start, detail: "ends before it starts")
      }
    }
  }

  @Test("Alerts a stopped monitor left open are closed at the next start, and say so")
  func recovery() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      try store.openAlert(channel: "fm1", kind: "lagging", start: Self.start, detail: "12.0 s behind")
      let restart = Self.start.addingTimeInterval(300)
      #expect(try store.recoverOpenAlerts(at: restart) == 1)
      #expect(try store.recoverOpenAlerts(at: restart) == 0)
      let row = try #require(try rows(path).first)
      #expect(row.end == restart)
      #expect(row.detail == "12.0 s behind; still open when the monitor stopped, closed at its next start")
    }
  }
}
