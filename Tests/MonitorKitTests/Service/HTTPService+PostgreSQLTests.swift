import Foundation
import TestSupport
import Testing

@testable import MonitorKit

/// The HTTP API of `broadcast-monitor run` writing a PostgreSQL play log: its reports, and what `/healthz` and
/// `/metrics` say while the server is down.
@Suite(
  "HTTP API of run on PostgreSQL", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct HTTPServicePostgreSQLTests {
  let folder: TemporaryDirectory
  let server: PostgreSQLTestServer
  let url: String
  let monitor: RunningMonitor

  init() throws {
    folder = try TemporaryDirectory(prefix: "http-postgres")
    server = try PostgreSQLTestServer()
    url = try server.makeDatabase("plays")
    let catalog = folder.file("music.bmcat")
    try CLI.makeCatalog(at: catalog)
    monitor = try RunningMonitor(
      [
        "--catalog", catalog.path, "--db", url, "--node", "a", "--spool-dir", folder.url.path,
        "--channel", "a=file+loop:" + Fixtures.music("catalog-b.ogg").path,
      ], folder: folder)
    try monitor.waitForLog("[a] play started: \"Chaos God\"")
  }

  @Test("a report from a PostgreSQL play log is the one `report` writes from it", .timeLimit(.minutes(10)))
  func reports() throws {
    #expect(try Wait.until(seconds: 60) { try server.psql("SELECT count(*) FROM plays", database: "plays") == "1\n" })
    let report = try monitor.get("/api/v1/reports/plays.csv?tz=UTC")
    #expect(report.status == 200, "\(report.body)")
    let command = try CLI.run(["report", "plays", "--db", url, "--tz", "UTC"])
    #expect(command.status == 0, "\(command)")
    let rows = report.body.split(separator: "\r\n")
    #expect(rows.first == command.stdout.split(separator: "\r\n").first)
    #expect(rows.count == 2 && rows.last?.contains("Chaos God") == true, "\(report.body)")
    let airplay = try monitor.get("/api/v1/reports/airplay.csv?tz=UTC&from=2000-01-01&to=2100-01-01")
    #expect(airplay.status == 200 && airplay.body.contains("Chaos God"), "\(airplay.body)")
    #expect(monitor.stop() == 0, "\(monitor.output)")
  }

  @Test(
    "PostgreSQL killed: /healthz and /metrics say it is unreachable, with the spooled writes, until it is back",
    .timeLimit(.minutes(10)))
  func outage() throws {
    #expect(try Wait.until(seconds: 60) { try monitor.get("/healthz").status == 200 })
    try server.kill()
    // The writer notices at its next write: the play's progress, or the next play as the file loops.
    var health = try monitor.get("/healthz")
    #expect(
      try Wait.until(seconds: 120, pollSeconds: 0.2) {
        health = try monitor.get("/healthz")
        return health.status == 503 && health.body.contains("unreachable since")
      }, "\(health)\n\(monitor.output)")
    #expect(health.body.contains("- play log \(url): unreachable since "), "\(health.body)")
    #expect(health.body.contains("in the spool: PostgreSQL play log"), "the last error: \(health.body)")
    let metrics = try monitor.get("/metrics").body
    try MetricsDocumentTests.checkWithPromtool(metrics)
    #expect(metrics.contains("broadcast_monitor_play_log_writable 0\n"), "\(metrics)")
    #expect(metrics.contains("broadcast_monitor_play_log_reachable 0\n"), "\(metrics)")
    let spooled = metrics.split(separator: "\n").first { $0.hasPrefix("broadcast_monitor_play_log_spooled_writes ") }
    #expect((spooled?.split(separator: " ").last).flatMap { Int($0) } ?? 0 > 0, "\(metrics)")

    try server.start()
    #expect(
      try Wait.until(seconds: 120, pollSeconds: 0.2) { try monitor.get("/healthz").status == 200 },
      "\(monitor.output)")
    let after = try monitor.get("/metrics").body
    #expect(after.contains("broadcast_monitor_play_log_reachable 1\n") && after.contains("_spooled_writes 0\n"))
    #expect(monitor.stop() == 0, "\(monitor.output)")
  }
}
