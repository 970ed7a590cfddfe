import Foundation
import Reports

/// `GET /healthz`: 200 `ok` when every channel has audio and the play log is writable; 503 with one line per
/// reason otherwise (for a load balancer, a container's health check or a person with curl). A channel lacks audio
/// as its alerts judge it: a `silence` or `source_down` alert open, under the configured thresholds and `forSeconds`
/// (so that a quiet second or a stream's reconnect is not a failed check), or an input that ended (a file channel
/// played to its end). A play log that takes no writes is named with its cause (`unreachable` for a PostgreSQL
/// server that cannot be reached, `not writable` otherwise), since when, the writes waiting (in memory and in the
/// spool) and the last error.
enum HealthCheck {
  /// The alerts that say a channel has no audio.
  static let noAudioAlerts: Set<AlertKind> = [.silence, .sourceDown]

  /// The reasons the monitor is not healthy, empty when it is.
  static func problems(_ readings: any MonitorReadings) -> [String] {
    var problems: [String] = []
    for status in readings.statuses {
      if status.input == .ended { problems.append("channel \(status.name): no audio (stopped)") }
      for alert in status.alerts where noAudioAlerts.contains(alert.kind) {
        problems.append(
          "channel \(status.name): \(alert.kind.rawValue) since \(ISO8601Millis.format(alert.since)) "
            + "(\(DisplayWidth.printable(alert.detail)))")
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
