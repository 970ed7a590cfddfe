import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `scan --db postgresql://…` that loses its server mid-scan.
@Suite(
  "broadcast-monitor scan on PostgreSQL", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct ScanCommandPostgreSQLTests {
  let folder: TemporaryDirectory
  let server: PostgreSQLTestServer
  let url: String
  var catalog: URL { folder.file("music.bmcat") }
  var recording: URL { folder.file("broadcast.wav") }

  /// Ten times unknown + a + b (13 minutes of audio): long enough that the scan still runs when its server is
  /// killed.
  init() throws {
    folder = try TemporaryDirectory(prefix: "scan-postgres")
    server = try PostgreSQLTestServer()
    url = try server.makeDatabase("plays")
    try CLI.makeCatalog(at: catalog)
    let unknown = try CLI.decode("unknown.ogg")
    let a = try CLI.decode("catalog-a.ogg")
    let b = try CLI.decode("catalog-b.ogg")
    try WAVWriter.write(Array(repeating: unknown + a + b, count: 10).flatMap { $0 }, sampleRate: 8000, to: recording)
  }

  /// Starts the scan with `--outage-wait seconds`, kills the server once the scan is connected, and waits for the
  /// scan to say it waits for the server.
  func scanLosingServer(outageWaitSeconds: Int) throws -> BackgroundProcess {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let scan = try BackgroundProcess(
      executable: executable.path,
      arguments: [
        "scan", "--catalog", catalog.path, "--channel", "fm", "--start", "2026-01-01T00:00:00Z", "--db", url,
        "--node", "scanner", "--outage-wait", "\(outageWaitSeconds)", "--spool-dir", folder.url.path, recording.path,
      ], outputPath: folder.file("scan.txt").path)
    // Its channel claimed: the play log is open, and the scan is decoding.
    #expect(
      PlayLogWriterPostgreSQLTests.wait {
        (try? server.psql("SELECT count(*) FROM channel_owners WHERE node = 'scanner'", database: "plays")) == "1\n"
      }, "the scan opens the play log")
    try server.kill()
    #expect(
      PlayLogWriterPostgreSQLTests.wait(seconds: 120) { scan.output.contains("is unreachable") || !scan.isRunning },
      "\(scan.output)")
    #expect(scan.output.contains("the plays wait in the spool"), "the scan ran past the kill: \(scan.output)")
    return scan
  }

  @Test("A scan that loses its server waits for it, writes every play once and exits 0", .timeLimit(.minutes(10)))
  func waitsForServer() throws {
    let scan = try scanLosingServer(outageWaitSeconds: 300)
    defer { scan.terminateAndWait() }
    try server.start()
    #expect(scan.waitForExit(seconds: 120) == 0, "\(scan.output)")
    let counts = try server.psql(
      "SELECT count(*) || ' ' || count(DISTINCT start_ms) FROM plays", database: "plays")
    #expect(counts == "20 20\n", "10 airings each of a and b, once each: \(scan.output)")
  }

  @Test("Past --outage-wait the scan exits 74 and names the spool that keeps its plays")
  func givesUpAfterWait() throws {
    let scan = try scanLosingServer(outageWaitSeconds: 1)
    defer { scan.terminateAndWait() }
    #expect(scan.waitForExit(seconds: 120) == 74, "\(scan.output)")
    let spool = folder.file("scanner.postgresql.spool").path
    #expect(scan.output.contains(spool), "\(scan.output)")
    #expect(FileManager.default.fileExists(atPath: spool))
  }
}
