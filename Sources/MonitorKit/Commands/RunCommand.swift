import Foundation
import Synchronization

/// `broadcast-monitor run`: the daemon. Runs until SIGINT or SIGTERM (or `q` in the console), then ends every running
/// play at the last audio heard and exits 0 (74 when the play log could not take them all: they wait in the spool
/// for the next start); SIGHUP reads the configuration again (`Monitor+Reload.swift`) and reloads the catalog without
/// losing running plays.
///
/// Unless `--http off`, it also serves the HTTP API, `/metrics` and `/healthz` (`HTTPService`); under systemd it
/// reports ready, watchdog and stopping through `sd_notify` (`SystemdNotifier`).
///
/// What it shows is chosen here, once: on a terminal, the live console (`ConsoleView`); when standard output is not
/// a terminal, or with `--log`, one line per event on standard error; with `--json`, one JSON object per event on
/// standard output.
enum RunCommand {
  static func run(_ words: ArraySlice<String>) throws -> Int32 {
    let arguments = try CommandLineArguments(words, for: CommandTable.run)
    guard arguments.positionals.isEmpty else {
      throw UsageError(
        "unexpected \(arguments.positionals.joined(separator: " ")); channels go in --channel NAME=SOURCE")
    }
    let currentDirectory = FileManager.default.currentDirectoryPath
    let configuration = try MonitorConfiguration.load(arguments: arguments, currentDirectory: currentDirectory)
    let json = arguments.has("json")
    // A log reader that goes away (`run --json | jq` ended, a journal stream broken) must not end the daemon: its
    // writes fail (EPIPE) instead of killing it with SIGPIPE, and the lines are dropped.
    signal(SIGPIPE, SIG_IGN)
    let outputClosed = Atomic(false)
    let log =
      json
      ? MonitorLog(
        format: .json,
        write: { line in
          guard !StandardStream.write(line, to: STDOUT_FILENO), !outputClosed.exchange(true, ordering: .relaxed)
          else { return }
          StandardStream.write(
            "broadcast-monitor: standard output cannot be written (\(String(cString: strerror(errno)))): the JSON "
              + "events are dropped from now on; the play log keeps every play\n", to: STDERR_FILENO)
        })
      : MonitorLog(format: MonitorLog.textFormat(environment: ProcessInfo.processInfo.environment))
    let wantsConsole =
      !json && !arguments.has("log") && isatty(STDOUT_FILENO) == 1
      && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    // Signals are handled before the monitor is built, so that one that comes while it starts (its recovery of the
    // play log is already logged) stops it as it should, instead of killing the process.
    let stop = DispatchSemaphore(value: 0)
    let console = ConsoleHolder()
    let signals = TerminationSignals(hangUp: true)
    let stopping = Atomic(false)
    signals.onSignal { signal in
      guard !stopping.exchange(true, ordering: .relaxed) else { return }
      log.line("\(TerminationSignals.name(signal)): stopping; running plays end at the last audio heard")
      console.view?.requestStop()
      stop.signal()
    }
    let http = try HTTPService.bind(configuration.http, log: log)  // a port in use stops the start here
    let monitor = try Monitor(configuration: configuration, log: log)
    try monitor.start()
    try http?.start(readings: monitor, configuration: configuration, log: log)
    signals.onHangUp {
      let applied = monitor.reload {
        try MonitorConfiguration.load(arguments: arguments, currentDirectory: currentDirectory)
      }
      if applied { http?.update(configuration: monitor.configuration, log: log) }
    }
    let systemd = SystemdNotifier()
    // The watchdog is fed only while the monitor answers for its channels: their status is read under their locks,
    // so a lock never released stops the pings and systemd restarts the service.
    systemd?.ready(status: "monitoring \(configuration.channels.count) channels") {
      _ = monitor.statuses
      return true
    }
    if wantsConsole {
      runConsole(monitor: monitor, log: log, holder: console, stop: stop)
    }
    stop.wait()
    systemd?.stopping()
    http?.stop()
    let leftover = monitor.stop()
    withExtendedLifetime(signals) {}
    if wantsConsole {
      printError(stoppedSummary(monitor.statuses, playLog: configuration.databasePath))
    }
    // EX_IOERR: the play log could not take everything; the spool (or standard error) holds the rest, as logged.
    return leftover.isEmpty ? 0 : Self.unwrittenStatus
  }

  /// The line printed after the console closes: how many plays the channels recognized in this run (their typed
  /// status counts every play, however long the run), and where they are.
  static func stoppedSummary(_ statuses: [ChannelStatus], playLog: String) -> String {
    let plays = statuses.reduce(0) { $0 + $1.playCount }
    return "broadcast-monitor: stopped; \(plays) plays recognized in this run. Play log: \(playLog)"
  }

  /// The exit status of a stop that left writes outside the play log (EX_IOERR). systemd restarts on it: the next
  /// start replays the spool.
  static let unwrittenStatus: Int32 = 74

  /// Shows the console until it ends; then the terminal is restored and `stop` is signalled (a key, or the
  /// terminal going away, stops the monitor exactly as SIGTERM does). A terminal that cannot be used falls back to
  /// the log lines. Control thread.
  private static func runConsole(monitor: Monitor, log: MonitorLog, holder: ConsoleHolder, stop: DispatchSemaphore) {
    let terminal: TerminalMode
    let view: ConsoleView
    do {
      terminal = try TerminalMode()
      view = try ConsoleView(monitor: monitor, log: log, terminal: terminal)
    } catch {
      log.line("console not available (\(error)); logging one line per event instead", severity: .warning)
      return
    }
    let logOnTerminal = isatty(STDERR_FILENO) == 1
    if logOnTerminal { log.holdOutput() }  // the console shows the log; lines on stderr would tear the screen
    holder.view = view
    let ending = view.run()
    holder.view = nil
    terminal.restore()
    log.releaseOutput()
    if view.framesDrawn > 0 {
      log.line(
        String(
          format: "console: %d frames drawn, %.2f ms of CPU each on average", view.framesDrawn,
          view.drawingCPUSeconds / Double(view.framesDrawn) * 1000))
    }
    switch ending {
    case .stopRequested: return  // the signal handler logged it and signalled `stop`
    case .quitKey: log.line("q: stopping; running plays end at the last audio heard")
    case .interruptKey: log.line("Ctrl-C: stopping; running plays end at the last audio heard")
    case .terminalLost(let reason):
      log.line("terminal lost (\(reason)): stopping; running plays end at the last audio heard")
    }
    stop.signal()
  }
}

/// The console while it runs, for the signal handler to stop it. Any thread.
private final class ConsoleHolder: @unchecked Sendable {
  private let lock = NSLock()
  private var current: ConsoleView?
  var view: ConsoleView? {
    get { lock.withLock { current } }
    set { lock.withLock { current = newValue } }
  }
}
