import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `/metrics` in Prometheus' text format, checked by Prometheus' own `promtool check metrics`.
@Suite("Prometheus metrics")
struct MetricsDocumentTests {
  static let promtool = BackgroundProcess.path(of: "promtool")

  /// Runs `promtool check metrics` on `text`; fails the test on any complaint. Without promtool (Debian's
  /// `prometheus` package, installed by scripts/setup.sh) it says so and checks nothing.
  static func checkWithPromtool(_ text: String) throws {
    guard let promtool else {
      print("promtool is not installed (Debian package prometheus, see scripts/setup.sh): /metrics not validated")
      return
    }
    let folder = try TemporaryDirectory(prefix: "promtool")
    let file = folder.file("metrics.txt")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let result = try Subprocess.run("/bin/sh", ["-c", "\"$0\" check metrics < \"$1\"", promtool, file.path])
    #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)\n\(text)")
  }

  @Test("promtool accepts the metrics, with -Inf levels, quotes and backslashes in channel names, and JACK")
  func promtoolAccepts() throws {
    let text = MetricsDocument.make(FixedReadings(jack: true))
    try Self.checkWithPromtool(text)
    #expect(text.contains("broadcast_monitor_input_level_dbfs{channel=\"am\\\"2\\\\x\"} -Inf\n"), "\(text)")
    #expect(text.contains("broadcast_monitor_input_level_dbfs{channel=\"fm1\"} -12.5\n"))
    #expect(text.contains("broadcast_monitor_reconnects_total{channel=\"fm1\"} 1\n"))
    #expect(text.contains("broadcast_monitor_jack_xruns_total 3\n"))
    #expect(text.contains("broadcast_monitor_play_log_write_duration_seconds_bucket{le=\"0.001\"} 4\n"), "cumulative")
    #expect(text.contains("broadcast_monitor_play_log_write_duration_seconds_count 4\n"))
    #expect(text.contains("broadcast_monitor_catalog_audio_seconds 6840\n"))
    #expect(text.contains("broadcast_monitor_alert_active{channel=\"am\\\"2\\\\x\",kind=\"silence\"} 1\n"), "\(text)")
    #expect(text.contains("broadcast_monitor_alert_active{channel=\"fm1\",kind=\"silence\"} 0\n"))
    #expect(text.contains("broadcast_monitor_alert_active{channel=\"\",kind=\"play_log_unwritable\"} 0\n"))
  }

  @Test("the other nodes' heartbeat ages, and node_down open for the whole monitor; none with an SQLite play log")
  func peerNodes() throws {
    var readings = FixedReadings()
    var text = MetricsDocument.make(readings)
    #expect(!text.contains("broadcast_monitor_node_heartbeat_age_seconds"), "no check: no family")
    #expect(text.contains("broadcast_monitor_alert_active{channel=\"\",kind=\"node_down\"} 0\n"))
    readings.overview.peerNodesCheckedAt = Date()
    readings.overview.peerNodes = [
      PeerNode(node: "studio-2", channels: ["b1"], lastHeartbeat: Date(), silentSeconds: 4, sessionEnded: false),
      PeerNode(node: "st\"3", channels: ["c1"], lastHeartbeat: Date(), silentSeconds: 95, sessionEnded: true),
    ]
    readings.overview.alerts = [ActiveAlert(kind: .nodeDown, since: Date(), detail: "node st\"3 …")]
    text = MetricsDocument.make(readings)
    try Self.checkWithPromtool(text)
    #expect(text.contains("broadcast_monitor_node_heartbeat_age_seconds{node=\"studio-2\"} 4\n"), "\(text)")
    #expect(text.contains("broadcast_monitor_node_heartbeat_age_seconds{node=\"st\\\"3\"} 95\n"), "\(text)")
    #expect(text.contains("broadcast_monitor_alert_active{channel=\"\",kind=\"node_down\"} 1\n"))
    #expect(!text.contains("channel=\"fm1\",kind=\"node_down\""), "not a channel's alert")
  }

  @Test("each channel waiting for another node, with that node; no family while none waits")
  func waitingChannels() throws {
    var readings = FixedReadings()
    #expect(!MetricsDocument.make(readings).contains("broadcast_monitor_channel_waiting"))
    readings.overview.waitingChannels = [
      WaitingChannel(
        configuration: ChannelConfiguration(name: "am", source: .stream(url: "http://127.0.0.1:8000/live")),
        heldBy: "studio-2",
        since: Date())
    ]
    let text = MetricsDocument.make(readings)
    try Self.checkWithPromtool(text)
    #expect(text.contains("broadcast_monitor_channel_waiting{channel=\"am\",held_by=\"studio-2\"} 1\n"), "\(text)")
  }

  @Test("a PostgreSQL play log that cannot be reached: writable 0, reachable 0, the writes waiting in the spool")
  func playLogOutage() throws {
    var readings = FixedReadings()
    #expect(MetricsDocument.make(readings).contains("broadcast_monitor_play_log_reachable 1\n"))
    readings.overview.storeFailing = true
    readings.overview.storeBacklog = 12
    readings.overview.storeSpooled = 10
    readings.overview.playLogOutage = PlayLogOutage(
      cause: .unreachable, since: Date(timeIntervalSince1970: 1_796_000_000), reason: "connection refused")
    let text = MetricsDocument.make(readings)
    try Self.checkWithPromtool(text)
    for line in [
      "broadcast_monitor_play_log_writable 0", "broadcast_monitor_play_log_reachable 0",
      "broadcast_monitor_play_log_pending_writes 12", "broadcast_monitor_play_log_spooled_writes 10",
    ] {
      #expect(text.contains(line + "\n"), "\(line) in \(text)")
    }
    readings.overview.playLogOutage?.cause = .unwritable
    #expect(MetricsDocument.make(readings).contains("broadcast_monitor_play_log_reachable 1\n"), "a full disk")
  }

  @Test("promtool refuses what the format forbids, so the check above can fail")
  func promtoolRefuses() throws {
    try #require(Self.promtool != nil, "promtool is not installed")
    let folder = try TemporaryDirectory(prefix: "promtool")
    let file = folder.file("metrics.txt")
    try "# TYPE x_total counter\nx_total{channel=\"a} 1\n".write(to: file, atomically: true, encoding: .utf8)
    let result = try Subprocess.run("/bin/sh", ["-c", "\"$0\" check metrics < \"$1\"", Self.promtool!, file.path])
    #expect(result.status != 0, "\(result)")
  }
}
