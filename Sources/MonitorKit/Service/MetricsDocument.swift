import Foundation

/// `GET /metrics`: the monitor in Prometheus' text format (version 0.0.4), names per Prometheus' conventions: the
/// `broadcast_monitor_` prefix, base units in the name (`_seconds`, `_dbfs`), `_total` on counters. Per channel
/// (label `channel`): input level, plays, overruns, gaps, reconnects, matcher lag; for the process: catalog size,
/// the play log's write latency (a histogram), its pending and spooled writes, whether it is writable and reachable, JACK xruns, the start time.
enum MetricsDocument {
  static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  static func make(_ readings: any MonitorReadings) -> String {
    let statuses = readings.statuses
    let overview = readings.overview
    var out = ""
    func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
      out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
      for sample in samples { out += "\(name)\(sample.labels) \(number(sample.value))\n" }
    }
    func perChannel(_ value: (ChannelStatus) -> Double) -> [(labels: String, value: Double)] {
      statuses.map { ("{channel=\"\(labelValue($0.name))\"}", value($0)) }
    }
    family(
      "broadcast_monitor_input_level_dbfs", "gauge",
      "Peak input level over the last second, in dBFS (-Inf for digital silence).",
      perChannel { $0.peakLevelDB.isFinite ? Double(min($0.peakLevelDB, 0)) : -.infinity })
    family(
      "broadcast_monitor_plays_total", "counter", "Plays recognized since the start.",
      perChannel { Double($0.playCount) })
    family(
      "broadcast_monitor_overruns_total", "counter", "Times audio was dropped because matching fell behind.",
      perChannel { Double($0.overrunCount) })
    family(
      "broadcast_monitor_gaps_total", "counter", "Times the source went away (no audio).",
      perChannel { Double($0.gapCount) })
    family(
      "broadcast_monitor_reconnects_total", "counter", "Times the source came back after a gap.",
      perChannel { Double($0.reconnectCount) })
    family(
      "broadcast_monitor_matcher_lag_seconds", "gauge", "Seconds of audio waiting to be matched.",
      perChannel { $0.lagSeconds })
    var alertSamples: [(labels: String, value: Double)] = []
    for status in statuses {
      let open = Set(status.alerts.map(\.kind))
      for kind in AlertKind.allCases where !kind.isMonitorWide {
        alertSamples.append(
          ("{channel=\"\(labelValue(status.name))\",kind=\"\(kind.rawValue)\"}", open.contains(kind) ? 1 : 0))
      }
    }
    let monitorOpen = Set(overview.alerts.map(\.kind))
    for kind in AlertKind.allCases where kind.isMonitorWide {
      alertSamples.append(("{channel=\"\",kind=\"\(kind.rawValue)\"}", monitorOpen.contains(kind) ? 1 : 0))
    }
    family(
      "broadcast_monitor_alert_active", "gauge",
      "1 while an alert of this kind is open (channel empty for the whole monitor's), 0 otherwise.", alertSamples)
    family(
      "broadcast_monitor_channel_listening", "gauge", "1 while the channel's audio flows, 0 otherwise.",
      perChannel { $0.input == .running ? 1 : 0 })
    family(
      "broadcast_monitor_catalog_tracks", "gauge", "Items in the catalog.", [("", Double(overview.catalogItems))])
    family(
      "broadcast_monitor_catalog_audio_seconds", "gauge", "Reference audio in the catalog, in seconds.",
      [("", overview.catalogHours * 3600)])
    let latency = readings.playLogWriteLatency
    out += "# HELP broadcast_monitor_play_log_write_duration_seconds Time each write to the play log took.\n"
    out += "# TYPE broadcast_monitor_play_log_write_duration_seconds histogram\n"
    var cumulative = 0
    for (index, bound) in LatencyHistogram.bucketBoundsSeconds.enumerated() {
      cumulative += latency.counts[index]
      out += "broadcast_monitor_play_log_write_duration_seconds_bucket{le=\"\(number(bound))\"} \(cumulative)\n"
    }
    out += "broadcast_monitor_play_log_write_duration_seconds_bucket{le=\"+Inf\"} \(latency.total)\n"
    out += "broadcast_monitor_play_log_write_duration_seconds_sum \(number(latency.sumSeconds))\n"
    out += "broadcast_monitor_play_log_write_duration_seconds_count \(latency.total)\n"
    family(
      "broadcast_monitor_play_log_pending_writes", "gauge", "Plays and events waiting to be written to the play log.",
      [("", Double(overview.storeBacklog))])
    family(
      "broadcast_monitor_play_log_writable", "gauge", "1 while the play log takes writes, 0 while they fail.",
      [("", overview.storeFailing ? 0 : 1)])
    family(
      "broadcast_monitor_play_log_spooled_writes", "gauge",
      "Of the pending writes, those kept in the spool file while the play log takes none.",
      [("", Double(overview.storeSpooled))])
    let outage = overview.playLogOutage
    family(
      "broadcast_monitor_play_log_reachable", "gauge",
      "0 while the play log's PostgreSQL server cannot be reached, 1 otherwise (an SQLite file is always reached).",
      [("", outage?.cause == .unreachable ? 0 : 1)])
    if !overview.peerNodes.isEmpty {
      let now = Date()
      family(
        "broadcast_monitor_node_heartbeat_age_seconds", "gauge",
        "Seconds since each other node of the PostgreSQL deployment last wrote its heartbeat (under 10 while it runs).",
        overview.peerNodes.map {
          ("{node=\"\(labelValue($0.node))\"}", overview.heartbeatAgeSeconds(of: $0, at: now))
        })
    }
    if !overview.waitingChannels.isEmpty {
      family(
        "broadcast_monitor_channel_waiting", "gauge",
        "1 for each channel of the configuration that waits for the node that holds it (held_by) to end, and is "
          + "taken over then (PostgreSQL).",
        overview.waitingChannels.map {
          ("{channel=\"\(labelValue($0.name))\",held_by=\"\(labelValue($0.heldBy))\"}", 1)
        })
    }
    if let jack = overview.jack {
      family(
        "broadcast_monitor_jack_xruns_total", "counter", "JACK xruns since the JACK client opened.",
        [("", Double(jack.xruns))])
    }
    family(
      "broadcast_monitor_start_time_seconds", "gauge", "When the monitor started, in seconds since 1970.",
      [("", overview.startedAt.timeIntervalSince1970)])
    return out
  }

  /// A sample value as Prometheus writes it: `+Inf`, `-Inf`, `NaN` or a decimal number.
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// A label value with backslash, double quote and line feed escaped, as the text format asks.
  static func labelValue(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      default: out.append(character)
      }
    }
    return out
  }
}
