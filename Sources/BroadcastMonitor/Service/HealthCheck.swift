import Foundation

/// `GET /healthz`: 200 `ok` when every channel has audio and the play log is writable; 503 with one line per
/// reason otherwise (for a load balancer, a container's health check or a person with curl).
enum HealthCheck {
  /// The reasons the monitor is not healthy, empty when it is.
  static func problems(_ readings: any MonitorReadings) -> [String] {
    var problems: [String] = []
    for status in readings.statuses {
      let state = ChannelsDocument.state(status)
      switch state {
      case "listening", "lagging": continue
      case "silent":
        let level = status.peakLevelDB.isFinite ? String(format: "%.1f dBFS", status.peakLevelDB) : "digital silence"
        problems.append(
          "channel \(status.name): silent (\(level), below \(Int(ChannelsDocument.silentBelowDBFS)) dBFS)")
      default:
        problems.append("channel \(status.name): no audio (\(state))")
      }
    }
    let overview = readings.overview
    if overview.storeFailing {
      problems.append(
        "play log \(overview.databasePath): not writable, \(overview.storeBacklog) writes waiting (see the log)")
    }
    return problems
  }

  static func response(_ readings: any MonitorReadings) -> HTTPResponse {
    let problems = problems(readings)
    guard !problems.isEmpty else { return .text("ok\n") }
    return .text("unhealthy:\n" + problems.map { "- \($0)\n" }.joined(), status: 503)
  }
}
