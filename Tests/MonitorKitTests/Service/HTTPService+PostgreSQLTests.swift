import Foundation
import TestSupport
import Testing

@testable import MonitorKit

/// The HTTP API of `broadcast-monitor run` writing a PostgreSQL play log: its reports.
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

  @Test("a report from a PostgreSQL play log is the one `report` writes from it", .timeLimit(.minutes(3)))
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
}
