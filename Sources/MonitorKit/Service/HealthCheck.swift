import Foundation
import Reports

/// `GET /healthz`: 200 `ok` when every channel has audio and the play log is writable; 503 with one line per
/// reason otherwise (for a load balancer, a container's health check or a person with curl). A play log that takes
/// no writes is named with its cause (`unreachable` for a PostgreSQL server that cannot be reached, `not writable`
/// otherwise), since when, the writes waiting (in memory and in the spool) and the last error.
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
    let waiting = "\(overview.storeBacklog) writes waiting, \(overview.storeSpooled) of them in the spool"
    if let outage = overview.playLogOutage {
      let what = outage.cause == .unreachable ? "unreachable" : "not writable"
      problems.append(
        "play log \(overview.databasePath): \(what) since \(ISO8601Millis.format(outage.since)), \(waiting): "
          + DisplayWidth.printable(outage.reason))
    } else if overview.storeFailing {
      problems.append("play log \(overview.databasePath): not writable, \(waiting) (see the log)")
    }
    return problems
  }

  static func response(_ readings: any MonitorReadings) -> HTTPResponse {
    let problems = problems(readings)
    guard !problems.isEmpty else { return .text("ok\n") }
    return .text("unhealthy:\n" + problems.map { "- \($0)\n" }.joined(), status: 503)
  }
}
