import Foundation
import TestSupport
import Testing

@testable import Reports

@Suite("PostgreSQLPlayLogStore")
struct PostgreSQLPlayLogStoreTests {
  /// Closes `store`, as when its node is killed, and waits until `other` sees its lease free: the server ends the
  /// closed session, and frees its advisory lock, a moment after the connection closes.
  static func close(_ store: PostgreSQLPlayLogStore, seenBy other: PostgreSQLPlayLogStore) throws {
    try store.close()
    let freed = try Wait.until(seconds: 10) { try other.leaseIsFree(of: store.node) }
    #expect(freed, "node \(store.node)'s lease freed after its session closed")
  }

  /// A server whose play log `plays` has nodes a and b running, holding channels A1 and B1.
  static func twoNodes() throws -> (
    server: PostgreSQLTestServer, url: String, a: PostgreSQLPlayLogStore, b: PostgreSQLPlayLogStore
  ) {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let a = try PostgreSQLPlayLogStore(url: url, node: "a")
    let b = try PostgreSQLPlayLogStore(url: url, node: "b")
    try a.claim(channels: ["A1"])
    try b.claim(channels: ["B1"])
    return (server, url, a, b)
  }

  @Test("The schema is the SQLite one's, with the same migration ids recorded")
  func migrationsAreRecordedTheSameWay() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    _ = try PostgreSQLPlayLogStore(url: url, node: "a")
    let ids = try server.psql("SELECT id FROM schema_migrations ORDER BY id", database: "plays")
    #expect(ids.split(separator: "\n").map(String.init) == Migrations.playLog.list.map(\.id))
    let columns = try server.psql(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'plays' ORDER BY ordinal_position",
      database: "plays")
    let sqlite = try PlayLogStore(path: ":memory:").database.query("SELECT name FROM pragma_table_info('plays')")
    #expect(columns.split(separator: "\n").map(String.init) == (try sqlite.map { try $0.string(0) }))
    #expect(columns.split(separator: "\n").suffix(2) == ["node", "identified_at_ms"], "\(columns)")
    _ = try PostgreSQLPlayLogStore(url: url, node: "b")  // an up-to-date schema opens as it is
  }

  @Test("A URL that holds a password is refused, naming where the password goes")
  func passwordInURLIsRefused() throws {
    #expect {
      _ = try PostgreSQLPlayLogStore(url: "postgresql://bm:secret@127.0.0.1:1/plays", node: "a")
    } throws: { error in
      "\(error)".contains("PGPASSWORD") && !"\(error)".contains("secret@")
    }
    // Only a changed configuration mends it: the command exits 78, and a writer would not wait for a server.
    #expect {
      _ = try PostgreSQLPlayLogStore(
        startingWithoutServer: "postgresql://bm:secret@127.0.0.1:1/plays", node: "a", channels: [])
    } throws: { error in
      let error = error as? PostgreSQLError
      return error?.needsConfigurationFix == true && error?.isConnectionLost == false
    }
  }

  @Test("The password comes from the configured file; without it the login is refused")
  func passwordFromFile() throws {
    let server = try PostgreSQLTestServer(password: "s3cret pass")
    let url = server.url()
    #expect {
      _ = try PostgreSQLPlayLogStore(url: url, node: "a", passwordFile: "/nonexistent/password")
    } throws: { "\($0)".contains("/nonexistent/password") && ($0 as? PostgreSQLError)?.needsConfigurationFix == true }
    try withTemporaryDirectory { folder in
      let file = folder.appendingPathComponent("password").path
      try "s3cret pass\n".write(toFile: file, atomically: true, encoding: .utf8)
      let store = try PostgreSQLPlayLogStore(url: url, node: "a", passwordFile: file)
      try store.recordEvent(channel: nil, kind: .restart, start: Date(), end: nil, detail: "")
      // Written on Windows: the line end is not part of the password.
      try "s3cret pass\r\n".write(toFile: file, atomically: true, encoding: .utf8)
      _ = try PostgreSQLPlayLogStore(url: url, node: "c", passwordFile: file)
      try "wrong\n".write(toFile: file, atomically: true, encoding: .utf8)
      #expect { _ = try PostgreSQLPlayLogStore(url: url, node: "b", passwordFile: file) } throws: {
        "\($0)".contains("password authentication failed")
      }
    }
  }

  @Test("A second monitor as the same node is refused; another node starts")
  func nodeLease() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let first = try PostgreSQLPlayLogStore(url: url, node: "studio-1")
    #expect(throws: PlayLogNodeError.nodeRunning(node: "studio-1", url: url)) {
      _ = try PostgreSQLPlayLogStore(url: url, node: "studio-1", leaseWaitSeconds: 0)
    }
    _ = try PostgreSQLPlayLogStore(url: url, node: "studio-2")
    try first.close()
    _ = try PostgreSQLPlayLogStore(url: url, node: "studio-1")  // the lease ended with its session
  }

  @Test("A channel a live node holds is refused, and taken over once that node is gone")
  func channelOwnership() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let first = try PostgreSQLPlayLogStore(url: url, node: "a")
    try first.claim(channels: ["CKUA", "CBC"])
    let second = try PostgreSQLPlayLogStore(url: url, node: "b")
    #expect(throws: PlayLogNodeError.channelHeld(channel: "CBC", node: "a", url: url)) {
      try second.claim(channels: ["JAZZ", "CBC"], waitSeconds: 0)
    }
    try first.claim(channels: ["CKUA"])  // its own again: fine
    try first.close()
    try second.claim(channels: ["CBC"])
    let owners = try server.channelOwners(database: "plays")
    #expect(owners == "CBC=b\nCKUA=a\nJAZZ=b\n")
  }

  @Test(
    "A reload's channels: one added that a live node holds is refused and reported, and tried again at the next; one removed is given up"
  )
  func reloadedChannels() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let a = try PostgreSQLPlayLogStore(url: url, node: "a")
    try a.claim(channels: ["A1"])
    let b = try PostgreSQLPlayLogStore(url: url, node: "b", leaseWaitSeconds: 0)
    try b.claim(channels: ["B1"])
    var reported: [PlayLogNodeError] = []
    b.onChannelsRefused = { reported += $0 }
    func owners() throws -> String { try server.channelOwners(database: "plays") }

    try b.listen(to: ["B1", "A1", "B2"])
    #expect(reported == [.channelHeld(channel: "A1", node: "a", url: url)])
    #expect(b.refusedChannels == ["A1": "a"])
    #expect(try owners() == "A1=a\nB1=b\nB2=b\n")
    #expect(throws: PlayLogNodeError.channelHeld(channel: "A1", node: "a", url: url)) {
      try b.record(PlayLogStoreTests.play(channel: "A1", start: 0))
    }

    try b.listen(to: ["A1", "B2"])  // B1 removed; A1, which the monitor stopped, started again by this reload
    #expect(reported.count == 2, "A1 tried again and refused again")
    #expect(try owners() == "A1=a\nB2=b\n", "B1 given up")
    let c = try PostgreSQLPlayLogStore(url: url, node: "c")
    try c.claim(channels: ["B1"], waitSeconds: 0)  // refused while node b owned it, though b no longer listened

    #expect(try b.freedChannels() == [], "node a, which holds A1, runs")
    try Self.close(a, seenBy: b)
    #expect(try b.freedChannels() == ["A1"], "node a has ended: a reload that lists A1 takes it")
    try b.listen(to: ["A1", "B2"])
    #expect(b.refusedChannels.isEmpty && reported.count == 2)
    #expect(try b.freedChannels() == [])
    #expect(try owners() == "A1=b\nB1=c\nB2=b\n", "A1 taken over once node a is gone")
  }

  @Test("A reload that takes a channel over from a killed node records that node's downtime there, as a start would")
  func reloadTakeoverDowntime() throws {
    let (server, _, a, b) = try Self.twoNodes()
    let time = PlayLogStoreTests.time
    try a.openAlert(channel: "A1", kind: "silence", start: time(1_000), detail: "quiet")
    try a.recordHeartbeat([ChannelHeartbeat(channel: "A1", heardThrough: time(2_000))])
    try b.recordHeartbeat([ChannelHeartbeat(channel: "B1", heardThrough: Date())])
    try Self.close(a, seenBy: b)  // node a is killed
    let before = Date().millisecondsSince1970
    try b.listen(to: ["B1", "A1"])
    let after = Date().millisecondsSince1970
    #expect(b.refusedChannels.isEmpty)
    #expect(
      b.takeNotices() == [
        "channel A1 taken over from node a, whose session had ended (killed, crashed, or cut off from the server): "
          + "its plays left open there are marked recovered, and its downtime there is written as a gap from its "
          + "last heartbeat"
      ])
    let gaps = try server.psql(
      "SELECT c.name || '|' || e.start_ms || '|' || e.end_ms || '|' || e.detail FROM events e "
        + "JOIN channels c ON c.id = e.channel_id WHERE e.kind = 'gap'",
      database: "plays"
    ).split(separator: "\n").map { $0.split(separator: "|", maxSplits: 3).map(String.init) }
    #expect(gaps.count == 1 && gaps.first?.count == 4, "\(gaps)")
    let gap = gaps.first ?? []
    #expect(gap.first == "A1" && gap.dropFirst().first == "\(time(2_000).millisecondsSince1970)")
    let end = Int64(gap.dropFirst(2).first ?? "") ?? 0
    #expect(end >= before && end <= after, "the gap ends at the takeover")
    #expect(gap.last == PostgreSQLPlayLogStore.takenOverDetail(from: "a", by: "b"))
    let heartbeats = try server.psql(
      "SELECT c.name || ':' || h.node FROM channel_heartbeats h JOIN channels c ON c.id = h.channel_id ORDER BY 1",
      database: "plays")
    #expect(heartbeats == "B1:b\n", "node a's heartbeat there is written as the gap; node b's stays")
    let alerts = try server.psql("SELECT (end_ms IS NOT NULL) || ':' || detail FROM alerts", database: "plays")
    #expect(alerts == "true:quiet; still open when node a ended, closed when node b took the channel over\n")
  }

  @Test("A reload made while the server is down takes the channel over on connecting, with the downtime until then")
  func reloadDuringOutageTakeover() throws {
    let (server, _, a, b) = try Self.twoNodes()
    let time = PlayLogStoreTests.time
    try a.recordHeartbeat([ChannelHeartbeat(channel: "A1", heardThrough: time(2_000))])
    try server.kill()  // node a's session ends with the server; its heartbeat stays
    #expect {
      try b.listen(to: ["B1", "A1"])
    } throws: { ($0 as? PostgreSQLError)?.isConnectionLost == true }
    try server.start()
    let before = Date().millisecondsSince1970
    try b.recordHeartbeat([ChannelHeartbeat(channel: "B1", heardThrough: Date())])  // connects, then writes
    #expect(try server.channelOwners(database: "plays") == "A1=b\nB1=b\n")
    #expect(b.takeNotices().first?.hasSuffix("written as a gap from its last heartbeat") == true)
    let gap = try server.psql(
      "SELECT e.start_ms || '|' || e.end_ms FROM events e JOIN channels c ON c.id = e.channel_id "
        + "WHERE e.kind = 'gap' AND c.name = 'A1'",
      database: "plays"
    ).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int64($0) }
    #expect(gap.first == time(2_000).millisecondsSince1970 && (gap.last ?? 0) >= before, "\(gap)")
    let heartbeats = try server.psql(
      "SELECT c.name || ':' || h.node FROM channel_heartbeats h JOIN channels c ON c.id = h.channel_id ORDER BY 1",
      database: "plays")
    #expect(heartbeats == "B1:b\n")
  }

  @Test(
    "A node's start closes the open alerts of its channels and those of the whole monitor it opened, not another node's"
  )
  func alertRecoveryIsPerNode() throws {
    let (server, url, a, b) = try Self.twoNodes()
    let time = PlayLogStoreTests.time
    try a.openAlert(channel: "A1", kind: "silence", start: time(0), detail: "quiet")
    try a.openAlert(channel: nil, kind: "play_log_unwritable", start: time(1), detail: "locked")
    try b.openAlert(channel: "B1", kind: "silence", start: time(2), detail: "quiet")
    try b.openAlert(channel: nil, kind: "play_log_unwritable", start: time(3), detail: "locked")
    try b.openAlert(channel: nil, kind: "node_down", start: time(4), detail: "node c …")
    try a.openAlert(channel: nil, kind: "node_down", start: time(4), detail: "node c …")  // the same alert, from a
    try a.close()  // node a is killed
    let restarted = try PostgreSQLPlayLogStore(url: url, node: "a")
    try restarted.claim(channels: ["A1"])
    #expect(try restarted.recoverOpenAlerts(at: time(10_000)) == 2)
    let alerts = try server.psql(
      "SELECT a.kind || ':' || coalesce(c.name, '-') || ':' || (a.end_ms IS NULL) FROM alerts a "
        + "LEFT JOIN channels c ON c.id = a.channel_id ORDER BY a.start_ms",
      database: "plays")
    #expect(
      alerts
        == "silence:A1:false\nplay_log_unwritable:-:false\nsilence:B1:true\nplay_log_unwritable:-:true\n"
        + "node_down:-:true\n", "node b's alerts stay open, and the node_down it opened first")
  }

  @Test("A node's recovery touches only its own open plays")
  func recoveryIsPerNode() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let a = try PostgreSQLPlayLogStore(url: url, node: "a")
    let b = try PostgreSQLPlayLogStore(url: url, node: "b")
    let aPlay = try a.record(PlayLogStoreTests.play(channel: "A1", start: 0, status: .open))
    let bPlay = try b.record(PlayLogStoreTests.play(channel: "B1", start: 0, status: .open))
    try a.close()  // node a "crashes"
    let restarted = try PostgreSQLPlayLogStore(url: url, node: "a")
    #expect(try restarted.recoverOpenPlays() == [aPlay])
    let statuses = try server.psql("SELECT id || ':' || status FROM plays ORDER BY id", database: "plays")
    #expect(statuses == "\(aPlay):recovered\n\(bPlay):open\n")
  }

  @Test(
    "A channel taken from a killed node: that node's open play on it is recovered, and the rest of its airing continues it"
  )
  func takenChannelsOpenPlays() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let time = PlayLogStoreTests.time
    let a = try PostgreSQLPlayLogStore(url: url, node: "a")
    try a.claim(channels: ["A1", "A2"])
    var cut = PlayLogStoreTests.play(channel: "A1", start: 0, status: .open)
    cut.end = time(20_000)
    let cutID = try a.record(cut)
    let otherID = try a.record(PlayLogStoreTests.play(channel: "A2", start: 0, status: .open))
    try a.close()  // node a is killed while both play
    let b = try PostgreSQLPlayLogStore(url: url, node: "b")
    try b.claim(channels: ["A1"])
    #expect(
      b.takeNotices() == [
        "channel A1 taken over from node a, whose session had ended (killed, crashed, or cut off from the server): "
          + "its plays left open there are marked recovered"
      ])
    #expect(b.takeNotices().isEmpty, "each said once")
    #expect(try b.recoverOpenPlays().isEmpty, "node b had no open play of its own")
    let statuses = try server.psql("SELECT id || ':' || status FROM plays ORDER BY id", database: "plays")
    #expect(statuses == "\(cutID):recovered\n\(otherID):open\n", "A2 is node a's still, and waits for its restart")
    var rest = cut
    rest.start = time(45_000)
    rest.refOffsetSeconds = 45
    rest.end = time(60_000)
    let continued = try #require(try b.reopenPlayOfSameAiring(as: rest, retrying: false), "one airing, one play")
    #expect(continued == ContinuedPlay(id: cutID, status: .recovered, end: cut.end))
    try b.extend(playID: cutID, end: time(60_000), confidence: 0.9, status: .open)

    // Node a was only cut off from the server, and connects again: A1 is refused, and its writes of the play it
    // began there, heard while cut off, are not written into the play node b continues. A2's are.
    let back = try PostgreSQLPlayLogStore(url: url, node: "a")
    try back.listen(to: ["A1", "A2"])
    #expect(back.refusedChannels == ["A1": "b"])
    let held = PlayLogNodeError.channelHeld(channel: "A1", node: "b", url: url)
    #expect(throws: held) {
      try back.update(
        playID: cutID, start: nil, end: time(90_000), refOffsetSeconds: 0, speed: 1, confidence: 0.5, status: .closed)
    }
    #expect(throws: held) { try back.extend(playID: cutID, end: time(90_000), confidence: 0.5, status: .closed) }
    #expect(throws: held) { try back.retract(playID: cutID) }
    var heardCutOff = rest
    heardCutOff.start = time(70_000)
    heardCutOff.refOffsetSeconds = 70
    heardCutOff.end = time(80_000)
    #expect(throws: held) { try back.reopenPlayOfSameAiring(as: heardCutOff, retrying: true) }
    #expect(throws: held) { try back.record(heardCutOff) }
    try back.extend(playID: otherID, end: time(200_000), confidence: 0.9, status: .closed)
    let after = try server.psql(
      "SELECT id || ':' || status || ':' || end_ms FROM plays ORDER BY id", database: "plays")
    let continuedEnd = time(60_000).millisecondsSince1970
    #expect(after == "\(cutID):open:\(continuedEnd)\n\(otherID):closed:\(time(200_000).millisecondsSince1970)\n")
  }

  @Test("A node's start ends only its own channels' open gaps")
  func gapRecoveryIsPerNode() throws {
    let (server, url, a, b) = try Self.twoNodes()
    let time = PlayLogStoreTests.time
    try a.recordEvent(channel: "A1", kind: .gap, start: time(1_000), end: nil, detail: "stopped")
    try b.recordEvent(channel: "B1", kind: .gap, start: time(2_000), end: nil, detail: "source down")
    try a.close()  // node a stops
    let restarted = try PostgreSQLPlayLogStore(url: url, node: "a")
    try restarted.claim(channels: ["A1"])
    #expect(try restarted.recoverDowntime(channels: ["A1", "B1"], at: time(5_000)) == RecoveredDowntime(endedGaps: 1))
    let gaps = try server.psql(
      "SELECT c.name || ':' || coalesce(e.end_ms::text, '-') FROM events e JOIN channels c ON c.id = e.channel_id "
        + "ORDER BY e.id",
      database: "plays")
    #expect(gaps == "A1:\(time(5_000).millisecondsSince1970)\nB1:-\n")
  }

  @Test(
    "A node's start writes its killed run's heartbeats and those of a channel taken from a killed node as gaps, no others"
  )
  func heartbeatRecoveryIsPerNode() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let time = PlayLogStoreTests.time
    func heartbeat(_ channel: String, _ milliseconds: Int64) -> ChannelHeartbeat {
      ChannelHeartbeat(channel: channel, heardThrough: time(milliseconds))
    }
    let a = try PostgreSQLPlayLogStore(url: url, node: "a")
    let b = try PostgreSQLPlayLogStore(url: url, node: "b")
    let c = try PostgreSQLPlayLogStore(url: url, node: "c")
    try a.claim(channels: ["A1"])
    try b.claim(channels: ["B1"])
    try c.claim(channels: ["C1"])
    try a.recordHeartbeat([heartbeat("A1", 1_000)])
    try b.recordHeartbeat([heartbeat("B1", 1_000)])
    try c.recordHeartbeat([heartbeat("C1", 1_500)])
    try a.recordHeartbeat([heartbeat("A1", 2_000)])
    try a.close()  // nodes a and c are killed: their sessions end, their heartbeats stay
    try c.close()
    let restarted = try PostgreSQLPlayLogStore(url: url, node: "a")
    try restarted.claim(channels: ["A1", "C1"])
    #expect(
      try restarted.recoverDowntime(channels: ["A1", "C1"], at: time(5_000))
        == RecoveredDowntime(killedRunGaps: 2, oldestHeartbeat: time(1_500)))
    let gaps = try server.psql(
      "SELECT c.name || ':' || e.start_ms || '-' || coalesce(e.end_ms::text, '') FROM events e "
        + "JOIN channels c ON c.id = e.channel_id ORDER BY e.id",
      database: "plays")
    let ms = { time($0).millisecondsSince1970 }
    #expect(gaps == "A1:\(ms(2_000))-\(ms(5_000))\nC1:\(ms(1_500))-\(ms(5_000))\n")
    let left = try server.psql(
      "SELECT c.name || ':' || h.node FROM channel_heartbeats h JOIN channels c ON c.id = h.channel_id",
      database: "plays")
    #expect(left == "B1:b\n", "the live node's heartbeat stays")
  }

  @Test(
    "A node reads the other nodes' heartbeats: their channels, the server's time of their last write, and whether their session ended"
  )
  func peerNodes() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let time = PlayLogStoreTests.time
    func heartbeat(_ channel: String) -> ChannelHeartbeat { ChannelHeartbeat(channel: channel, heardThrough: time(1)) }
    let a = try PostgreSQLPlayLogStore(url: url, node: "a")
    let b = try PostgreSQLPlayLogStore(url: url, node: "b")
    let c = try PostgreSQLPlayLogStore(url: url, node: "c")
    #expect(try a.peerNodes() == [])
    try a.recordHeartbeat([heartbeat("A1")])
    try b.recordHeartbeat([heartbeat("B2"), heartbeat("B1")])
    try c.recordHeartbeat([heartbeat("C1")])
    try Self.close(c, seenBy: a)  // node c is killed: its session ends, its heartbeat stays
    // Node b hangs: its rows were last written 90 s ago by the server's clock, the newer one of them.
    try server.psql(
      "UPDATE channel_heartbeats SET written_at_ms = written_at_ms - 90000 - (channel_id % 2) * 5000 WHERE node = 'b'",
      database: "plays")
    try server.psql(
      "UPDATE node_heartbeats SET written_at_ms = written_at_ms - 95000 WHERE node = 'b'", database: "plays")
    let newestOfB = try #require(
      Int64(
        try server.psql("SELECT max(written_at_ms) FROM channel_heartbeats WHERE node = 'b'", database: "plays")
          .trimmingCharacters(in: .whitespacesAndNewlines)))

    let peers = try a.peerNodes()
    #expect(peers.map(\.node) == ["b", "c"], "a's own heartbeat is not a peer's")
    #expect(peers.map(\.channels) == [["B1", "B2"], ["C1"]])
    #expect(peers.map(\.sessionEnded) == [false, true])
    #expect(peers.first?.lastHeartbeat.millisecondsSince1970 == newestOfB)
    #expect((90..<100).contains(peers.first?.silentSeconds ?? 0), "\(peers)")
    #expect((0..<10).contains(peers.last?.silentSeconds ?? -1), "\(peers)")
    #expect(try b.peerNodes().map(\.node) == ["a", "c"])
    #expect(try !a.leaseIsFree(of: "b") && a.leaseIsFree(of: "c"), "the checks left the leases as they were")

    // Node c starts again and takes its rows, and stops; a row written before migration 011 has no write time, and
    // the time it heard through stands in, and a node that wrote none of its own before migration 013 is seen by
    // its channels' rows.
    let restarted = try PostgreSQLPlayLogStore(url: url, node: "c")
    try restarted.claim(channels: ["C1"])
    try restarted.recoverDowntime(channels: ["C1"], at: time(5_000))
    try restarted.recordHeartbeat([heartbeat("C1")])
    try restarted.clearHeartbeat()
    try server.psql("UPDATE channel_heartbeats SET written_at_ms = NULL WHERE node = 'b'", database: "plays")
    try server.psql("DELETE FROM node_heartbeats WHERE node = 'b'", database: "plays")
    let old = try a.peerNodes()
    #expect(old.map(\.node) == ["b"])
    #expect(old.first?.lastHeartbeat == time(1))
  }

  @Test(
    "A node killed after its channels were taken over is still a peer, with who took each; a node whose channels all wait is one too, until it stops"
  )
  func peerNodesAfterTakeover() throws {
    let (server, url, a, b) = try Self.twoNodes()
    func heartbeat(_ channel: String) -> ChannelHeartbeat { ChannelHeartbeat(channel: channel, heardThrough: Date()) }
    try b.claim(channels: ["A2"])
    try b.recordHeartbeat([heartbeat("B1"), heartbeat("A2")])
    try a.claim(channels: ["A3"])
    try a.recordHeartbeat([heartbeat("A1"), heartbeat("A3")])
    // Node s is a standby: its only channel, A1, waits for node a.
    let s = try PostgreSQLPlayLogStore(
      startingWithoutServer: url, node: "s", channels: ["A1"], waitingForHeldChannels: true)
    #expect(s.refusedChannels == ["A1": "a"])
    try s.recordHeartbeat([heartbeat("A1")])
    let peers = try b.peerNodes()
    let standby = peers.first { $0.node == "s" }
    #expect(standby?.channels == [] && standby?.takenOver == [:], "a running node with no channel: \(peers)")
    #expect(try b.peerNodes().first { $0.node == "a" }?.channels == ["A1", "A3"], "its heartbeat dropped none")

    try Self.close(a, seenBy: b)  // node a is killed; node s takes A1 over, node b A3
    #expect(try s.freedChannels() == ["A1"])
    try s.listen(to: ["A1"])
    try s.recordHeartbeat([heartbeat("A1")])
    try b.listen(to: ["B1", "A2", "A3"])
    let down = try #require(try b.peerNodes().first { $0.node == "a" })
    #expect(down.channels == [] && down.takenOver == ["A1": "s", "A3": "b"], "\(down)")
    #expect(down.sessionEnded, "A1's heartbeat is node s's now; A3 has none yet, and its owner says who holds it")

    try s.clearHeartbeat()  // node s stops cleanly: no longer a peer
    try s.close()
    #expect(try b.peerNodes().map(\.node) == ["a"])
    // Node a, retired: started and stopped once more.
    let retired = try PostgreSQLPlayLogStore(url: url, node: "a")
    try retired.recoverDowntime(channels: [], at: Date())
    try retired.clearHeartbeat()
    #expect(try b.peerNodes().isEmpty)
    _ = server
  }

  @Test(
    "A retired node: its open plays recovered, a gap opened and the channel given up where it still listened, its alerts closed but node_down, no longer a peer; once only, and never while it runs"
  )
  func retire() throws {
    let (server, url, a, b) = try Self.twoNodes()
    let time = PlayLogStoreTests.time
    try a.claim(channels: ["A2"])
    let aPlay = try a.record(PlayLogStoreTests.play(channel: "A1", start: 0, status: .open))
    let bPlay = try b.record(PlayLogStoreTests.play(channel: "B1", start: 0, status: .open))
    try a.openAlert(channel: "A1", kind: "silence", start: time(1_000), detail: "quiet")
    try a.openAlert(channel: nil, kind: "play_log_unwritable", start: time(1_500), detail: "locked")
    try a.openAlert(channel: nil, kind: "node_down", start: time(1_600), detail: "node c …")
    try b.openAlert(channel: "B1", kind: "silence", start: time(1_700), detail: "quiet")
    try a.recordHeartbeat([
      ChannelHeartbeat(channel: "A1", heardThrough: time(2_000)),
      ChannelHeartbeat(channel: "A2", heardThrough: time(2_500)),
    ])
    try b.recordHeartbeat([ChannelHeartbeat(channel: "B1", heardThrough: Date())])
    #expect(throws: PlayLogNodeError.nodeRunning(node: "a", url: url)) {
      _ = try PostgreSQLPlayLogStore(url: url, node: "a", leaseWaitSeconds: 0)
    }
    try Self.close(a, seenBy: b)  // node a is killed; node b takes A2 over
    try b.listen(to: ["B1", "A2"])
    try b.recordHeartbeat([
      ChannelHeartbeat(channel: "B1", heardThrough: Date()), ChannelHeartbeat(channel: "A2", heardThrough: Date()),
    ])
    #expect(try b.peerNodes().map(\.node) == ["a"])

    let retiring = try PostgreSQLPlayLogStore(url: url, node: "a", leaseWaitSeconds: 0)
    var expected = NodeRetirement()
    expected.recoveredPlays = [aPlay]
    expected.releasedChannels = ["A1"]
    expected.openedGaps = ["A1"]
    expected.closedAlerts = 2
    expected.hadHeartbeat = true
    #expect(try retiring.retire(at: time(9_000), keepingOpen: ["node_down"]) == expected)
    #expect(try retiring.retire(at: time(9_500), keepingOpen: ["node_down"]).isEmpty, "nothing left the second time")
    try retiring.close()

    #expect(try b.peerNodes().isEmpty, "node b no longer counts node a down")
    let plays = try server.psql("SELECT id || ':' || status FROM plays ORDER BY id", database: "plays")
    #expect(plays == "\(aPlay):recovered\n\(bPlay):open\n")
    let gaps = try server.psql(
      "SELECT c.name || ':' || e.start_ms || ':' || (e.end_ms IS NULL) || ':' || e.detail FROM events e "
        + "JOIN channels c ON c.id = e.channel_id WHERE e.kind = 'gap' ORDER BY c.name",
      database: "plays")
    #expect(
      gaps
        == "A1:\(time(2_000).millisecondsSince1970):true:\(PostgreSQLPlayLogStore.retiredDetail("a"))\n"
        + "A2:\(time(2_500).millisecondsSince1970):false:"
        + "\(PostgreSQLPlayLogStore.takenOverDetail(from: "a", by: "b"))\n",
      "A1 is open until a node monitors it; A2's gap was written and ended by the takeover")
    #expect(try server.channelOwners(database: "plays") == "A2=b\nB1=b\n")
    let alerts = try server.psql(
      "SELECT a.kind || ':' || coalesce(c.name, '-') || ':' || (a.end_ms IS NULL) FROM alerts a "
        + "LEFT JOIN channels c ON c.id = a.channel_id ORDER BY a.start_ms",
      database: "plays")
    #expect(
      alerts == "silence:A1:false\nplay_log_unwritable:-:false\nnode_down:-:true\nsilence:B1:true\n",
      "node_down is the running nodes' to close, and node b's alert is its own")
    // Node b's reload lists A1 too: it claims the channel, and the gap ends as it starts monitoring it.
    let before = Date().millisecondsSince1970
    try b.listen(to: ["B1", "A2", "A1"])
    #expect(try server.channelOwners(database: "plays") == "A1=b\nA2=b\nB1=b\n")
    let end = try server.psql(
      "SELECT e.end_ms FROM events e JOIN channels c ON c.id = e.channel_id WHERE c.name = 'A1' AND e.kind = 'gap'",
      database: "plays")
    #expect((Int64(end.dropLast()) ?? 0) >= before, "the gap ends at the claim: \(end)")
  }

  @Test("After the server is killed and restarted, the store reconnects and takes its node lease back")
  func reconnectsAfterServerRestart() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let store = try PostgreSQLPlayLogStore(url: url, node: "a")
    try store.claim(channels: ["A1"])
    try store.record(PlayLogStoreTests.play(channel: "A1", start: 0, status: .closed))
    try server.kill()
    #expect {
      try store.record(PlayLogStoreTests.play(channel: "A1", start: 200_000, status: .closed))
    } throws: { ($0 as? PostgreSQLError)?.isConnectionLost == true }
    try server.start()
    try store.record(PlayLogStoreTests.play(channel: "A1", start: 200_000, status: .closed))
    #expect(throws: PlayLogNodeError.nodeRunning(node: "a", url: url)) {
      _ = try PostgreSQLPlayLogStore(url: url, node: "a", leaseWaitSeconds: 0)
    }
    let other = try PostgreSQLPlayLogStore(url: url, node: "b")
    #expect(throws: PlayLogNodeError.channelHeld(channel: "A1", node: "a", url: url)) {
      try other.claim(channels: ["A1"], waitSeconds: 0)
    }
    #expect(try server.psql("SELECT count(*) FROM plays", database: "plays") == "2\n")
  }
}
