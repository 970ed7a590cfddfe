import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("PlayLogWriter on PostgreSQL")
struct PlayLogWriterPostgreSQLTests {
  /// Waits until `condition` holds, for at most `seconds`.
  static func wait(seconds: Double = 60, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < deadline else { return false }
      usleep(20_000)
    }
    return true
  }

  @Test(
    "PostgreSQL killed with SIGKILL during writes and restarted: every play written once, the outage logged once",
    .timeLimit(.minutes(10)))
  func serverKilledDuringWrites() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let folder = try TemporaryDirectory(prefix: "writer-postgres")
    let lines = LineCollector()
    let spool = PlayLogLocation.spool(for: url, node: "a", directory: folder.url.path)
    let writer = PlayLogWriter(
      store: try PostgreSQLPlayLogStore(url: url, node: "a"), spool: spool,
      log: MonitorLog(write: { lines.append($0) }), retrySeconds: 0.2)
    let playCount = 400
    func submit(_ range: Range<Int>) {
      for index in range {
        let token = writer.makeToken()
        let start = 1_000_000 + Double(index) * 200
        writer.submit(.start(token: token, play: PlayLogWriterTests.play("song \(index % 7)", start: start)))
        writer.submit(
          .update(
            token: token, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: start + 150),
            refOffsetSeconds: 0, speed: 1, confidence: 0.9, closed: true))
      }
    }
    submit(0..<300)
    #expect(Self.wait { writer.backlog < 450 }, "the writer writes")
    try server.kill()  // while the writer is at it
    #expect(Self.wait { writer.isFailing }, "the writer notices the outage")
    #expect(writer.outage?.cause == .unreachable, "\(String(describing: writer.outage))")
    submit(300..<playCount)  // plays heard during the outage
    #expect(Self.wait { writer.spooled == writer.backlog && FileManager.default.fileExists(atPath: spool.path) })
    try server.start()
    #expect(writer.waitUntilWritten(timeoutSeconds: 60))
    #expect(writer.outage == nil)
    #expect(writer.stop().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: spool.path), "the spool is removed once written")

    let counts = try server.psql(
      "SELECT count(*) || ' ' || count(DISTINCT detected_at_ms) || ' ' || count(*) FILTER (WHERE status = 'closed') "
        + "FROM plays", database: "plays")
    #expect(counts == "\(playCount) \(playCount) \(playCount)\n", "plays, distinct plays, closed plays")
    let outages = lines.text.components(separatedBy: "cannot be written").count - 1
    #expect(outages == 1, "\(lines.text)")
    #expect(lines.text.contains("writable again"))
  }

  @Test(
    "After each heartbeat it writes, also one with every channel waiting, the writer reads the other nodes'; a clean stop reads none",
    .timeLimit(.minutes(10)))
  func peerNodesAfterHeartbeats() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let folder = try TemporaryDirectory(prefix: "writer-peers")
    let other = try PostgreSQLPlayLogStore(url: url, node: "b")
    try other.recordHeartbeat([ChannelHeartbeat(channel: "b1", heardThrough: Date())])
    let writer = PlayLogWriter(
      store: try PostgreSQLPlayLogStore(url: url, node: "a"),
      spool: PlayLogLocation.spool(for: url, node: "a", directory: folder.url.path), log: MonitorLog(write: { _ in }))
    #expect(writer.peerNodes == nil, "no check before the first heartbeat")
    writer.submitHeartbeat([ChannelHeartbeat(channel: "a1", heardThrough: Date())])
    #expect(Self.wait { writer.peerNodes != nil })
    #expect(writer.peerNodes?.peers.map(\.node) == ["b"])
    #expect(writer.peerNodes?.peers.first?.channels == ["b1"])
    #expect(writer.peerNodes?.peers.first?.sessionEnded == false, "node b's store holds its lease")
    let first = writer.peerNodes?.checkedAt
    try other.close()
    // The server ends the closed session, and frees node b's lease, a moment after the connection closes.
    let probe = try PostgreSQLPlayLogStore(url: url, node: "probe")
    #expect(try Wait.until(seconds: 10) { try probe.leaseIsFree(of: "b") })
    writer.submit(.stopped)
    #expect(writer.waitUntilWritten(timeoutSeconds: 30))
    #expect(writer.peerNodes?.checkedAt == first, "a clean stop reads no one")
    writer.submitHeartbeat([])  // every channel waits for another node: this node runs all the same
    #expect(Self.wait { writer.peerNodes?.checkedAt != first })
    #expect(writer.peerNodes?.peers.first?.sessionEnded == true, "node b's session ended with its store")
    #expect(writer.stop().isEmpty)
  }

  @Test("A spool left by a node is replayed into PostgreSQL once on its next start", .timeLimit(.minutes(10)))
  func spoolReplayedOnce() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let folder = try TemporaryDirectory(prefix: "writer-postgres-spool")
    let spool = PlayLogLocation.spool(for: url, node: "a", directory: folder.url.path)
    let play = PlayLogWriterTests.play("spooled", start: 5_000)
    try spool.append([PlaySpool.Entry(command: .start(token: 1, play: play))])
    let store = try PostgreSQLPlayLogStore(url: url, node: "a")
    try store.record(play)  // the last run wrote it, then died before the spool was removed
    #expect(try PlayLogWriter.replay(spool, into: store, log: MonitorLog(write: { _ in })) == 1)
    #expect(try server.psql("SELECT count(*) FROM plays", database: "plays") == "1\n")
    #expect(!spool.exists)
  }
}
