import Foundation
import Reports

/// Why `broadcast-monitor feed` stopped before the end of its file. The description says what to do.
enum FeedError: Error, Equatable, CustomStringConvertible {
  /// The JACK server (`nil`: the default one) went away after `seconds` of `file` had been played.
  case serverShutDown(server: String?, file: String, seconds: Double)
  /// The audio queued from `file` was not played out within the rings' duration and a second.
  case notPlayedOut(file: String, destinations: String)
  /// `--start` is at or past the end of `file`.
  case startPastEnd(file: String, start: Double)
  /// With `--on-air-since` (`since`, seconds since 1970), the air had reached `seconds` into `file`, at or past its
  /// end.
  case airPastEnd(file: String, since: Double, seconds: Double)

  var description: String {
    switch self {
    case .serverShutDown(let server, let file, let seconds):
      let which = server.map { "JACK server \"\($0)\"" } ?? "the JACK server"
      return "\(which) shut down after \(String(format: "%.1f", seconds)) s of \(file) had been played: start it "
        + "again, then run feed again (--start SECONDS skips what was played)"
    case .notPlayedOut(let file, let destinations):
      return "the end of \(file) was not played into \(destinations) in time: the JACK server stopped running its "
        + "clients; check its log, or restart it"
    case .startPastEnd(let file, let start):
      return "\(file) has no audio after --start \(String(format: "%g", start)) s: give a --start within the file "
        + "(ffprobe \(file) shows its duration)"
    case .airPastEnd(let file, let since, let seconds):
      let time = ISO8601Millis.format(Date(timeIntervalSince1970: since))
      return "\(file) has no audio \(String(format: "%.1f", seconds)) s in, where air that began at \(time) is "
        + "now: give an --on-air-since less than the file's duration ago (ffprobe \(file) shows it)"
    }
  }
}
