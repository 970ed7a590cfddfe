import Common
import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// Three `broadcast-monitor run` nodes of several file channels each, writing one PostgreSQL play log at once, and
/// the reports of what they wrote. Three channels a node here (a debug build on a shared 2-core CI machine matches
/// nine real-time channels at most); `bench/nodes.sh` runs the full three nodes of 16 channels, release build.
@Suite(
  "Three run nodes into one PostgreSQL", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RunCommandNodesTests {
  static let nodes = ["north", "south", "west"]
  static let files = ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"]

  /// A play as the PostgreSQL play log holds it, with its catalog item, read back as JSON.
  struct StoredPlay: Decodable {
    let node: String
    let channel, itemKey, title, artist, album, isrc, label, kind, attributesJSON, status: String
    let durationMilliseconds: Int64?
    let startMilliseconds, endMilliseconds, refOffsetMilliseconds, detectedAtMilliseconds: Int64
    let speed, confidence: Double

    var record: PlayRecord {
      get throws {
        PlayRecord(
          channel: channel, itemKey: itemKey, title: title, artist: artist, album: album, isrc: isrc, label: label,
          kind: try #require(ItemKind(rawValue: kind), "kind \(kind)"),
          attributes: try JSONDecoder().decode([String: String].self, from: Data(attributesJSON.utf8)),
          itemDurationSeconds: durationMilliseconds.map { Double($0) / 1000 },
          start: Date(milliseconds: startMilliseconds), end: Date(milliseconds: endMilliseconds),
          refOffsetSeconds: Double(refOffsetMilliseconds) / 1000, speed: speed, confidence: confidence,
          detectedAt: Date(milliseconds: detectedAtMilliseconds),
          status: try #require(PlayStatus(rawValue: status)))
      }
    }
  }

  @Test(
    "Every play each node hears is in the play log once, and the reports equal those from SQLite",
    .timeLimit(.minutes(10)))
  func threeNodes() throws {
    let runs = try RunCommandTests()
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let monitors = try Self.nodes.map { node in
      try runs.startMonitor(
        ["--catalog", runs.catalog.path, "--db", url, "--node", node, "--spool-dir", runs.folder.url.path, "--log"]
          + Self.files.indices.flatMap { index in
            ["--channel", "\(node)-\(index + 1)=file+loop:" + Fixtures.music(Self.files[index]).path]
          }, name: node)
    }
    defer { for monitor in monitors { monitor.terminateAndWait() } }
    // Each channel's first loop ends (its play ends as the next loop's starts): several plays a channel.
    for monitor in monitors {
      #expect(
        Wait.until(seconds: 150, pollSeconds: 0.5) {
          monitor.output.components(separatedBy: "play ended:").count - 1 >= Self.files.count
        }, "\(monitor.output)")
    }
    for monitor in monitors { monitor.send(SIGINT) }
    for monitor in monitors { #expect(monitor.waitForExit(seconds: 30) == 0, "\(monitor.output)") }

    for (node, monitor) in zip(Self.nodes, monitors) {
      let heard = monitor.output.components(separatedBy: "play started:").count - 1
      #expect(heard >= Self.files.count, "\(monitor.output)")
      let rows = try server.psql(
        "SELECT count(*), count(DISTINCT (channel_id, start_ms)) FROM plays WHERE node = '\(node)'", database: "plays")
      #expect(rows == "\(heard)|\(heard)\n", "node \(node): each play it heard once: \(monitor.output)")
    }
    let strays = try server.psql(
      "SELECT count(*) FROM plays p JOIN channels c ON c.id = p.channel_id WHERE c.name NOT LIKE p.node || '-%'",
      database: "plays")
    #expect(strays == "0\n", "each channel's plays are its node's")

    // The same plays in an SQLite play log, written through its own store, and every report from both.
    let json = try server.psql(
      """
      SELECT json_build_object('node', p.node, 'channel', c.name, 'itemKey', i.item_key, 'title', i.title,
        'artist', i.artist, 'album', i.album, 'isrc', i.isrc, 'label', i.label, 'kind', i.kind,
        'attributesJSON', i.attributes_json, 'durationMilliseconds', i.duration_ms, 'status', p.status,
        'startMilliseconds', p.start_ms, 'endMilliseconds', p.end_ms, 'refOffsetMilliseconds', p.ref_offset_ms,
        'detectedAtMilliseconds', p.detected_at_ms, 'speed', p.speed, 'confidence', p.confidence)
      FROM plays p JOIN channels c ON c.id = p.channel_id JOIN catalog_items i ON i.id = p.item_id ORDER BY p.id
      """, database: "plays")
    let stored = try json.split(separator: "\n").map { try JSONDecoder().decode(StoredPlay.self, from: Data($0.utf8)) }
    #expect(Set(stored.map(\.channel)).count == Self.nodes.count * Self.files.count)
    let sqlite = runs.folder.file("same-plays.sqlite").path
    let store = try PlayLogStore(path: sqlite)
    try store.record(contentsOf: try stored.map { try $0.record })
    try store.close()
    let reports: [[String]] = [
      ["plays"], ["airplay", "--tz", "UTC"], ["airplay", "--by-channel", "--tz", "UTC"],
      ["airplay", "--group", "day", "--tz", "UTC"], ["plays", "--channel", "south-2"], ["proof-of-play"],
    ]
    for arguments in reports {
      let fromSQLite = try CLI.run(["report"] + arguments + ["--db", sqlite])
      let fromPostgreSQL = try CLI.run(["report"] + arguments + ["--db", url])
      #expect(fromSQLite.status == 0, "report \(arguments.joined(separator: " ")): \(fromSQLite)")
      #expect(fromSQLite.stdout.contains(",") && fromSQLite.stdout.contains("\n"), "\(arguments): \(fromSQLite)")
      #expect(fromPostgreSQL.stdout == fromSQLite.stdout, "report \(arguments.joined(separator: " "))")
    }
    #expect(try CLI.run(["report", "plays", "--db", url]).stdout.contains("Armygeddon"))
  }
}

extension Date {
  fileprivate init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
