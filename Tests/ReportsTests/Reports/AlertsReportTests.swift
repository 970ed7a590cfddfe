import Foundation
import Testing

@testable import Reports

@Suite("AlertsReport")
struct AlertsReportTests {
  /// The golden CSV of `fixture()` under `scope`: `Tests/Fixtures/golden/reports/alerts.csv`.
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/golden/reports/alerts.csv")

  static let scope = ReportScope(channelTimeZones: ["ckua": .toronto, "fip": .paris], defaultTimeZone: .utc)

  /// Alerts of two stations and of the monitor, one still open, one with a comma and a quote in its detail.
  static func fixture() throws -> ReportFixture {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-01-15T05:00:00Z", seconds: 180)
    ])
    let store = try PlayLogStore(path: fixture.path)
    func at(_ text: String) -> Date { ISO8601Millis.parse(text)! }
    try store.openAlert(
      channel: "ckua", kind: "silence", start: at("2026-01-15T04:59:30Z"),
      detail: "below -50 dBFS for 15 s (peak -71.2 dBFS)")
    try store.closeAlert(
      channel: "ckua", kind: "silence", start: at("2026-01-15T04:59:30Z"), end: at("2026-01-15T05:00:12.250Z"),
      detail: "below -50 dBFS for 15 s (peak -71.2 dBFS)")
    try store.openAlert(
      channel: "fip", kind: "source_down", start: at("2026-01-15T06:00:00Z"),
      detail: "stream http://example.org/fip: \"Connection refused\", retrying")
    try store.closeAlert(
      channel: nil, kind: "play_log_unwritable", start: at("2026-01-15T05:30:00Z"), end: at("2026-01-15T05:31:00Z"),
      detail: "disk full, writes kept in the spool")
    try store.openAlert(
      channel: "ckua", kind: "no_catalog", start: at("2026-01-16T05:00:00Z"), detail: "nothing for 30 min")
    try store.close()
    return fixture
  }

  @Test("One row per alert by start, in each station's local time, the open one without end (golden file)")
  func golden() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let text = try fixture.csv { try AlertsReport(scope: Self.scope).write(from: $0, to: $1) }
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
      try FileManager.default.createDirectory(
        at: Self.golden.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: Self.golden)
    }
    let stored = try String(contentsOf: Self.golden, encoding: .utf8)
    #expect(text == stored, "differs from \(Self.golden.path); if meant, run with UPDATE_GOLDEN=1 and commit it")
    #expect(
      text.hasPrefix(
        crlf(
          "channel,kind,start,end,duration_s,detail",
          "ckua,silence,2026-01-14T23:59:30.000-05:00,2026-01-15T00:00:12.250-05:00,42.250,"
            + "below -50 dBFS for 15 s (peak -71.2 dBFS)")))
  }

  @Test("--from, --to and --channel keep the alerts of that channel that overlap the span")
  func scoped() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.channelName = "ckua"
    scope.from = ReportBound("2026-01-15")
    scope.to = ReportBound("2026-01-16")
    let text = try fixture.csv { try AlertsReport(scope: scope).write(from: $0, to: $1) }
    let rows = try StrictCSVParser.parse(text).dropFirst().map { [$0[0], $0[1], $0[2]] }
    // The silence began before local midnight of the 15th and ended after it: it overlaps the day.
    #expect(rows == [["ckua", "silence", "2026-01-14T23:59:30.000-05:00"]])

    scope.channelName = nil
    scope.from = ReportBound("2026-01-15T05:30:30Z")
    scope.to = nil
    let later = try fixture.csv { try AlertsReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      try StrictCSVParser.parse(later).dropFirst().map { [$0[0], $0[1]] } == [
        ["", "play_log_unwritable"], ["fip", "source_down"], ["ckua", "no_catalog"],
      ])
  }

  @Test("A channel the play log does not have, and an empty span, are refused")
  func refusals() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.channelName = "nope"
    #expect(throws: ReportError.self) {
      _ = try fixture.csv { try AlertsReport(scope: scope).write(from: $0, to: $1) }
    }
    scope.channelName = nil
    scope.from = ReportBound("2026-01-16")
    scope.to = ReportBound("2026-01-15")
    #expect(throws: ReportError.emptySpan(from: scope.from!, to: scope.to!)) {
      _ = try fixture.csv { try AlertsReport(scope: scope).write(from: $0, to: $1) }
    }
  }
}
