import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("db nodes and db retire", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct DatabaseRetireCommandTests {
  @Test(
    "db retire refuses a running node (75), retires it once it is killed and says what changed, then finds nothing; db nodes shows it running, ended, then gone"
  )
  func retiresAKilledNode() throws {
    let folder = try TemporaryDirectory(prefix: "db-retire")
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let node = try PostgreSQLPlayLogStore(url: url, node: "studio-2")
    try node.claim(channels: ["am"])
    let start = Date(timeIntervalSince1970: 1_796_000_000)
    try node.record(
      PlayRecord(
        channel: "am", itemKey: "song-1", title: "Title", start: start, end: start.addingTimeInterval(180),
        refOffsetSeconds: 0, speed: 1, confidence: 0.9, detectedAt: start.addingTimeInterval(7), status: .open))
    try node.recordHeartbeat([ChannelHeartbeat(channel: "am", heardThrough: Date())])
    let arguments = ["db", "retire", "--db", url, "--node", "studio-2"]
    func listed() throws -> [[String]] {
      let result = try CLI.run(["db", "nodes", "--db", url], in: folder.url)
      #expect(result.status == 0, "\(result)")
      return result.stdout.split(separator: "\n").map {
        $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      }
    }
    let header = ["node", "state", "channels", "taken_over", "last_heartbeat", "silent_s"]
    let running = try listed()
    #expect(running.first == header && running.count == 2, "\(running)")
    #expect(running.last?.prefix(4) == ["studio-2", "running", "am", ""], "\(running)")

    let refused = try CLI.run(arguments, in: folder.url)
    #expect(refused.status == 75, "\(refused)")
    #expect(
      refused.stderr.contains("db retire: node studio-2 is running on the play log \(url)")
        && refused.stderr.contains("Stop it first"), "\(refused.stderr)")
    #expect(try server.psql("SELECT status FROM plays", database: "plays") == "open\n", "nothing changed")

    try node.close()  // killed: its session ends a moment later, and its lease with it
    var ended: [[String]] = []
    #expect(
      try Wait.until(seconds: 10) {
        ended = try listed()
        return ended.last?[1] == "ended"
      }, "\(ended)")
    #expect(ended.last?[4] == running.last?[4], "the same last heartbeat: \(ended)")
    let result = try CLI.run(arguments, in: folder.url)
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stderr.split(separator: "\n").map(String.init) == [
        "db retire: node studio-2 of \(url) retired",
        "  open plays marked recovered: 1",
        "  channels given up: am (no node monitors them now; a node whose configuration lists them claims them at "
          + "its start)",
        "  gaps opened at its last heartbeat: am (each ends when a node monitors the channel again)",
        "  open alerts closed: 0",
        "  heartbeat removed: the running nodes no longer count it down, and close node_down once it has been "
          + "clear for alerts.holdSeconds (within 10 s plus that, 10 s by default)",
      ], "\(result.stderr)")
    #expect(try server.psql("SELECT status FROM plays", database: "plays") == "recovered\n")

    #expect(try listed() == [header], "a retired node has no heartbeat")
    let again = try CLI.run(arguments, in: folder.url)
    #expect(again.status == 0, "\(again)")
    #expect(again.stderr.contains("db retire: node studio-2 left nothing in \(url) to retire"), "\(again.stderr)")
  }

  @Test("db retire of a database that holds no play log is refused, and creates none there")
  func otherDatabaseRefused() throws {
    let folder = try TemporaryDirectory(prefix: "db-retire-other")
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("inventory")
    let result = try CLI.run(["db", "retire", "--db", url, "--node", "studio-2"], in: folder.url)
    #expect(result.status != 0, "\(result)")
    #expect(result.stderr.contains("the database has no play log tables"), "\(result.stderr)")
    #expect(
      try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: "inventory") == "0\n")
  }

  @Test("db retire of an SQLite play log is refused (64): it has no nodes")
  func sqliteRefused() throws {
    let folder = try TemporaryDirectory(prefix: "db-retire-sqlite")
    let result = try CLI.run(
      ["db", "retire", "--db", folder.file("plays.sqlite").path, "--node", "studio-2"], in: folder.url)
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("only a PostgreSQL play log has nodes to retire"), "\(result.stderr)")
  }
}
