import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// Several `broadcast-monitor run` nodes writing one PostgreSQL play log.
@Suite(
  "broadcast-monitor run on PostgreSQL", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RunCommandPostgreSQLTests {
  @Test(
    "A node that starts a channel a live node holds is refused; a node killed with SIGKILL recovers only its plays",
    .timeLimit(.minutes(10)))
  func nodes() throws {
    let runs = try RunCommandTests()
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    func node(_ name: String, channel: String, file: String, run: String? = nil) throws -> BackgroundProcess {
      try runs.startMonitor(
        [
          "--catalog", runs.catalog.path, "--db", url, "--node", name, "--spool-dir", runs.folder.url.path,
          "--channel", "\(channel)=file+loop:" + Fixtures.music(file).path, "--log",
        ], name: run ?? name)
    }
    let a = try node("a", channel: "a1", file: "catalog-b.ogg")
    let b = try node("b", channel: "b1", file: "catalog-a.ogg")
    defer {
      a.terminateAndWait()
      b.terminateAndWait()
    }
    try runs.waitForLog(a, "[a1] play started: \"Chaos God\"")
    try runs.waitForLog(b, "[b1] play started: \"Armygeddon\"")

    let intruder = try node("c", channel: "b1", file: "catalog-a.ogg")
    defer { intruder.terminateAndWait() }
    #expect(intruder.waitForExit(seconds: 30) == 75, "\(intruder.output)")
    #expect(intruder.output.contains("channel b1 is monitored by node b, which is running"), "\(intruder.output)")
    let twin = try node("a", channel: "a2", file: "catalog-a.ogg", run: "twin")
    defer { twin.terminateAndWait() }
    #expect(twin.waitForExit(seconds: 30) == 75, "\(twin.output)")
    #expect(twin.output.contains("another monitor runs as node a"), "\(twin.output)")

    a.send(SIGKILL)
    #expect(a.waitForExit(seconds: 10) == 128 + SIGKILL)
    let statuses = "SELECT c.name || '=' || p.status FROM plays p JOIN channels c ON c.id = p.channel_id ORDER BY 1"
    #expect(try server.psql(statuses, database: "plays") == "a1=open\nb1=open\n")
    let restarted = try node("a", channel: "a1", file: "catalog-b.ogg", run: "a-again")
    defer { restarted.terminateAndWait() }
    try runs.waitForLog(restarted, "1 plays left open by the previous run were closed and marked recovered")
    #expect(try server.psql(statuses, database: "plays").contains("a1=recovered\n"))
    #expect(try server.psql(statuses, database: "plays").contains("b1=open\n"), "node b's running play stays open")
    restarted.send(SIGINT)
    b.send(SIGINT)
    #expect(restarted.waitForExit(seconds: 20) == 0, "\(restarted.output)")
    #expect(b.waitForExit(seconds: 20) == 0, "\(b.output)")
  }
}
