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
    "A node that starts a channel a live node holds is refused; a node killed with SIGKILL recovers only its plays, and the live node alerts node_down until it is back",
    .timeLimit(.minutes(10)))
  func nodes() throws {
    let runs = try RunCommandTests()
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    // The shortest wait for node_down, so that the test sees it open.
    let config = runs.folder.file("alerts.json5")
    try "{alerts: {nodeDown: {forSeconds: 30}}}".write(to: config, atomically: true, encoding: .utf8)
    func node(_ name: String, channel: String, file: String, run: String? = nil) throws -> BackgroundProcess {
      try runs.startMonitor(
        [
          "--config", config.path, "--catalog", runs.catalog.path, "--db", url, "--node", name, "--spool-dir",
          runs.folder.url.path, "--channel", "\(channel)=file+loop:" + Fixtures.music(file).path, "--log",
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
    let alerted = try runs.waitForLog(b, "ALERT node_down: Node a has written no heartbeat since", seconds: 90)
    #expect(
      alerted.contains(
        "and its session with the server has ended: it was killed or crashed, or it lost the server; nothing from its "
          + "channels a1 reaches the play log"), "\(alerted)")
    let restarted = try node("a", channel: "a1", file: "catalog-b.ogg", run: "a-again")
    defer { restarted.terminateAndWait() }
    try runs.waitForLog(restarted, "1 plays left open by the previous run were closed and marked recovered")
    #expect(try server.psql(statuses, database: "plays").contains("a1=recovered\n"))
    #expect(try server.psql(statuses, database: "plays").contains("b1=open\n"), "node b's running play stays open")
    try runs.waitForLog(b, "alert node_down over after", seconds: 60)
    // The log line comes as the close is handed to the play log writer: wait for the row.
    let alerts = "SELECT kind || ':' || coalesce(channel_id::text, '-') || ':' || (end_ms > start_ms) FROM alerts"
    #expect(
      Wait.until(seconds: 10) { (try? server.psql(alerts, database: "plays")) == "node_down:-:true\n" },
      "one alert, closed: \((try? server.psql(alerts, database: "plays")) ?? "")")
    restarted.send(SIGINT)
    b.send(SIGINT)
    #expect(restarted.waitForExit(seconds: 20) == 0, "\(restarted.output)")
    #expect(b.waitForExit(seconds: 20) == 0, "\(b.output)")
  }

  @Test(
    "A node started while PostgreSQL is down keeps its plays in its spool and writes each once when it starts",
    .timeLimit(.minutes(10)))
  func startsWithoutServer() throws {
    let runs = try RunCommandTests()
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    server.stop()
    let spool = runs.folder.file("a.postgresql.spool").path
    let node = try runs.startMonitor([
      "--catalog", runs.catalog.path, "--db", url, "--node", "a", "--spool-dir", runs.folder.url.path,
      "--channel", "a1=file+loop:" + Fixtures.music("catalog-b.ogg").path, "--log",
    ])
    defer { node.terminateAndWait() }
    try runs.waitForLog(node, "[a1] play started: \"Chaos God\"")
    #expect(
      Wait.until(seconds: 30) {
        ((try? String(contentsOfFile: spool, encoding: .utf8)) ?? "").contains("Chaos God")
      }, "the play waits in the spool, on disk")
    let outage = "cannot be written at start"
    #expect(node.output.components(separatedBy: outage).count == 2, "the outage is logged once: \(node.output)")

    try server.start()
    try runs.waitForLog(node, "the start-up writes are done")
    node.send(SIGINT)
    #expect(node.waitForExit(seconds: 20) == 0, "\(node.output)")
    let heard = node.output.components(separatedBy: "play started:").count - 1
    let rows = "SELECT count(*), count(DISTINCT (channel_id, start_ms)) FROM plays WHERE node = 'a'"
    #expect(try server.psql(rows, database: "plays") == "\(heard)|\(heard)\n", "\(node.output)")
    #expect(try server.psql("SELECT count(*) FROM plays WHERE status = 'open'", database: "plays") == "0\n")
    #expect(!FileManager.default.fileExists(atPath: spool), "the spool is removed once written")
  }

  @Test(
    "A node started while PostgreSQL is down stops a channel that a live node holds when it connects",
    .timeLimit(.minutes(10)))
  func startsWithoutServerThenFindsChannelHeld() throws {
    let runs = try RunCommandTests()
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    func node(_ name: String, url: String, channels: [(String, String)]) throws -> BackgroundProcess {
      try runs.startMonitor(
        [
          "--catalog", runs.catalog.path, "--db", url, "--node", name, "--spool-dir", runs.folder.url.path, "--log",
        ] + channels.flatMap { ["--channel", "\($0.0)=file+loop:" + Fixtures.music($0.1).path] }, name: name)
    }
    let b = try node("b", url: url, channels: [("b1", "catalog-a.ogg")])
    defer { b.terminateAndWait() }
    try runs.waitForLog(b, "[b1] play started: \"Armygeddon\"")
    // Node c reaches the server through a socket folder that is empty at its start, so that only c sees an outage.
    let sockets = runs.folder.file("sockets").path
    try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
    let socketURL = "postgresql://\(server.user)@/plays?host=\(sockets)&port=\(server.port)"
    let c = try node("c", url: socketURL, channels: [("c1", "catalog-b.ogg"), ("b1", "catalog-a.ogg")])
    defer { c.terminateAndWait() }
    try runs.waitForLog(c, "[b1] play started: \"Armygeddon\"")
    try runs.waitForLog(c, "cannot be written at start")
    let socketName = ".s.PGSQL.\(server.port)"
    try FileManager.default.createSymbolicLink(
      atPath: (sockets as NSString).appendingPathComponent(socketName),
      withDestinationPath: (server.socketFolder as NSString).appendingPathComponent(socketName))
    try runs.waitForLog(c, "[b1] stopped: channel b1 is monitored by node b, which is running")
    try runs.waitForLog(c, "the start-up writes are done")
    try runs.waitForLog(c, "[c1] play started: \"Chaos God\"")
    c.send(SIGINT)
    #expect(c.waitForExit(seconds: 20) == 0, "\(c.output)")
    let byNode = """
      SELECT p.node || ':' || ch.name || '=' || count(*) FROM plays p JOIN channels ch ON ch.id = p.channel_id
      GROUP BY p.node, ch.name ORDER BY 1
      """
    let counts = try server.psql(byNode, database: "plays")
    #expect(!counts.contains("c:b1"), "node c wrote none of b1's plays: \(counts)")
    #expect(counts.contains("c:c1="), "\(counts)")
    #expect(counts.contains("b:b1="), "\(counts)")
  }

  @Test("A node whose server refuses its login or lacks its database exits 78 with the cause")
  func refusedLogin() throws {
    let runs = try RunCommandTests()
    let server = try PostgreSQLTestServer(password: "right")
    func exit(_ url: String, password: String) throws -> (Int32?, String) {
      let executable = try #require(CLI.executable, CLI.notBuilt)
      let result = try Subprocess.run(
        "/usr/bin/env",
        [
          "PGPASSWORD=\(password)", "PGPASSFILE=/nonexistent", executable.path, "run", "--catalog", runs.catalog.path,
          "--db", url, "--node", "a", "--spool-dir", runs.folder.url.path,
          "--channel", "a1=file:" + Fixtures.music("catalog-b.ogg").path,
        ])
      return (result.status, result.stderr)
    }
    let (wrongPassword, wrongMessage) = try exit(server.url(), password: "wrong")
    #expect(wrongPassword == 78, "\(wrongMessage)")
    #expect(wrongMessage.contains("configuration: database.url:"), "\(wrongMessage)")
    #expect(wrongMessage.contains("refused the login"), "\(wrongMessage)")
    let (noDatabase, noDatabaseMessage) = try exit(server.url(database: "missing"), password: "right")
    #expect(noDatabase == 78, "\(noDatabaseMessage)")
    #expect(noDatabaseMessage.contains("\"missing\" does not exist"), "\(noDatabaseMessage)")
  }
}
