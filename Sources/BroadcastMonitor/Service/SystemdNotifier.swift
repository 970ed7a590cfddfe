import CSystemd
import Foundation

/// Tells systemd how the service is doing, through `sd_notify(3)` (libsystemd): `READY=1` once the monitor listens
/// (for `Type=notify`), `WATCHDOG=1` every half of `WATCHDOG_USEC` while it runs (for `WatchdogSec=`), and
/// `STOPPING=1` when it stops. Only under systemd: without `NOTIFY_SOCKET` in the environment, `init` returns nil
/// and nothing is sent.
///
/// Threads: `ready` and `stopping` from the control thread; the pings from a timer queue of their own.
final class SystemdNotifier: @unchecked Sendable {
  private var watchdog: DispatchSourceTimer?
  /// The interval of the watchdog's pings, nil when systemd asked for none.
  private(set) var pingIntervalSeconds: Double?

  /// Nil when the process does not run under systemd's notify protocol (no `NOTIFY_SOCKET`).
  init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
    guard environment["NOTIFY_SOCKET"]?.isEmpty == false else { return nil }
  }

  /// Sends `READY=1` with a status line, then starts the watchdog's pings when systemd asked for them.
  func ready(status: String) {
    send("READY=1\nSTATUS=\(status)")
    var microseconds: UInt64 = 0
    guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return }
    let interval = Double(microseconds) / 1e6 / 2
    pingIntervalSeconds = interval
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "systemd-watchdog"))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 100)))
    timer.setEventHandler { [weak self] in self?.send("WATCHDOG=1") }
    timer.resume()
    watchdog = timer
  }

  /// Stops the pings and sends `STOPPING=1`.
  func stopping() {
    watchdog?.cancel()
    watchdog = nil
    send("STOPPING=1")
  }

  private func send(_ state: String) { _ = sd_notify(0, state) }
}
