import Foundation
import Reports
import Testing

@testable import MonitorKit

@Suite("The channels document")
struct ChannelsDocumentTests {
  @Test("A channel's open alerts are listed with their kind, since when and detail; a channel without any has none")
  func alertsListed() throws {
    let text = ChannelsDocument.make(FixedReadings(), now: Date(timeIntervalSince1970: 1_796_000_100)).text
    let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let channels = try #require(document["channels"] as? [[String: Any]])
    #expect(channels.count == 2)
    #expect((channels[0]["alerts"] as? [Any])?.isEmpty == true, "\(text)")
    let alerts = try #require(channels[1]["alerts"] as? [[String: String]], "\(text)")
    #expect(
      alerts == [["kind": "silence", "since": "2026-11-30T00:53:00.000Z", "detail": "below -50 dBFS for 15 s"]])
  }

  @Test("Unknown music on air is listed with since when and its cluster; a channel without any has null")
  func unknownMusicListed() throws {
    var readings = FixedReadings()
    readings.statuses[1].unknownMusic = .init(since: Date(timeIntervalSince1970: 1_796_000_040), cluster: 7)
    let text = ChannelsDocument.make(readings, now: Date(timeIntervalSince1970: 1_796_000_100)).text
    let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let channels = try #require(document["channels"] as? [[String: Any]])
    #expect(channels[0]["unknownMusic"] is NSNull, "\(text)")
    let music = try #require(channels[1]["unknownMusic"] as? [String: Any], "\(text)")
    #expect(music["since"] as? String == "2026-11-30T00:54:00.000Z")
    #expect(music["cluster"] as? Int == 7)
  }

  @Test(
    "The monitor's own open alerts are listed, and the other nodes with their heartbeat's age at the document's time"
  )
  func monitorAlertsAndNodes() throws {
    var readings = FixedReadings()
    let now = Date(timeIntervalSince1970: 1_796_000_100)
    var document = try #require(
      try JSONSerialization.jsonObject(with: Data(ChannelsDocument.make(readings, now: now).text.utf8))
        as? [String: Any])
    #expect((document["alerts"] as? [Any])?.isEmpty == true)
    #expect((document["nodes"] as? [Any])?.isEmpty == true, "an SQLite play log: no other nodes")
    #expect((document["waiting"] as? [Any])?.isEmpty == true, "no channel waits")
    readings.overview.peerNodesCheckedAt = now.addingTimeInterval(-4)
    readings.overview.peerNodes = [
      PeerNode(
        node: "studio-2", channels: ["b1", "b2"], takenOver: ["b4": "studio-3", "b3": "studio-1"],
        lastHeartbeat: Date(timeIntervalSince1970: 1_796_000_010),
        silentSeconds: 86, sessionEnded: true)
    ]
    readings.overview.alerts = [
      ActiveAlert(kind: .nodeDown, since: Date(timeIntervalSince1970: 1_796_000_010), detail: "node studio-2 …")
    ]
    readings.overview.waitingChannels = [
      WaitingChannel(
        configuration: ChannelConfiguration(name: "am", source: .stream(url: "http://127.0.0.1:8000/live")),
        heldBy: "studio-3",
        since: Date(timeIntervalSince1970: 1_796_000_020))
    ]
    let text = ChannelsDocument.make(readings, now: now).text
    document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(
      document["alerts"] as? [[String: String]] == [
        ["kind": "node_down", "since": "2026-11-30T00:53:30.000Z", "detail": "node studio-2 …"]
      ], "\(text)")
    let nodes = try #require(document["nodes"] as? [[String: Any]], "\(text)")
    #expect(nodes.count == 1)
    #expect(nodes.first?["node"] as? String == "studio-2")
    #expect(nodes.first?["channels"] as? [String] == ["b1", "b2"])
    #expect(nodes.first?["takenOver"] as? [String: String] == ["b3": "studio-1", "b4": "studio-3"])
    #expect(text.contains(#""takenOver":{"b3":"studio-1","b4":"studio-3"}"#), "by channel name: \(text)")
    #expect(nodes.first?["lastHeartbeat"] as? String == "2026-11-30T00:53:30.000Z")
    #expect(nodes.first?["heartbeatAgeSeconds"] as? Int == 90, "86 s at the check, 4 s before the document")
    #expect(nodes.first?["sessionEnded"] as? Bool == true)
    #expect(nodes.first?["state"] as? String == "ended")
    #expect(
      document["waiting"] as? [[String: String]] == [
        ["channel": "am", "heldBy": "studio-3", "since": "2026-11-30T00:53:40.000Z"]
      ], "\(text)")
  }

  @Test("A node is running while its heartbeat is under three heartbeats old, then silent; ended once its session is")
  func nodeStates() {
    let peer = PeerNode(node: "b", channels: ["am"], lastHeartbeat: Date(), silentSeconds: 0, sessionEnded: false)
    #expect(ChannelsDocument.nodeState(peer, heartbeatAgeSeconds: 0) == "running")
    #expect(ChannelsDocument.nodeState(peer, heartbeatAgeSeconds: 29) == "running")
    #expect(ChannelsDocument.nodeState(peer, heartbeatAgeSeconds: 30) == "silent")
    var ended = peer
    ended.sessionEnded = true
    #expect(ChannelsDocument.nodeState(ended, heartbeatAgeSeconds: 2) == "ended")
  }
}
