import Foundation
import Synchronization

/// The live console of `broadcast-monitor run` on a terminal: redraws `ConsoleLayout`'s screen a few times a second
/// (only the lines that changed, in one write), follows the terminal's size (SIGWINCH, taken by a dispatch source
/// and handed to the loop through a wake-up pipe, never handled in the signal context), and reads keys: Up/Down
/// select a channel, Enter opens its detail view, Esc closes it, `q` (or Ctrl-C) quits.
///
/// Threads: `run()` on the control thread, which it blocks until the console ends; `requestStop()` from any thread
/// (the SIGINT/SIGTERM handler).
final class ConsoleView: @unchecked Sendable {
  /// Why the console ended.
  enum Ending: Equatable {
    /// `q` was pressed.
    case quitKey
    /// Ctrl-C was pressed (read as a key in raw mode): the same as SIGINT.
    case interruptKey
    /// `requestStop()` was called (SIGINT or SIGTERM).
    case stopRequested
    /// The terminal went away (a closed SSH session); the monitor stops as for SIGTERM.
    case terminalLost(String)
  }

  private let monitor: Monitor
  private let log: MonitorLog
  private let terminal: TerminalMode
  private let refreshSeconds: Double
  private let wake: WakeSignal
  private let stopping = Atomic<Bool>(false)
  private let resized = Atomic<Bool>(false)
  // Control thread only.
  private var selection = ConsoleSelection()
  private var frame: TerminalFrame
  private var keys = KeyReader()
  private var cpu = ProcessCPU()
  /// Frames drawn and the CPU time they took (layout and write), for the log line at the end.
  private(set) var framesDrawn = 0
  private(set) var drawingCPUSeconds = 0.0
  /// The zone times are shown in.
  private let timeZone: TimeZone

  init(monitor: Monitor, log: MonitorLog, terminal: TerminalMode, refreshSeconds: Double = 0.25) throws {
    self.monitor = monitor
    self.log = log
    self.terminal = terminal
    self.refreshSeconds = refreshSeconds
    timeZone = Self.displayZone(of: monitor.configuration.channels)
    wake = try WakeSignal()
    frame = TerminalFrame(colors: Self.showsColours(environment: ProcessInfo.processInfo.environment))
  }

  /// Whether the console shows colours: yes, unless `NO_COLOR` is set to anything but the empty string
  /// (https://no-color.org). The console itself only runs on a terminal; log lines never carry colours.
  static func showsColours(environment: [String: String]) -> Bool {
    (environment["NO_COLOR"] ?? "").isEmpty
  }

  /// The zone the console shows times in: the stations' own when every channel has the same, else UTC (one clock
  /// for channels in different zones).
  static func displayZone(of channels: [ChannelConfiguration]) -> TimeZone {
    let utc = TimeZone(identifier: "UTC")!
    let zones = Set(channels.map(\.timeZone))
    guard zones.count == 1, let only = zones.first else { return utc }
    return TimeZone(identifier: only) ?? utc
  }

  /// Asks `run()` to return at once. Any thread.
  func requestStop() {
    stopping.store(true, ordering: .releasing)
    wake.signal()
  }

  /// Shows the console until a key, `requestStop()` or the loss of the terminal ends it. Control thread.
  func run() -> Ending {
    let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: DispatchQueue(label: "console.sigwinch"))
    winch.setEventHandler { [self] in
      resized.store(true, ordering: .releasing)
      wake.signal()
    }
    winch.resume()
    defer { winch.cancel() }

    var nextFrame = Date()
    while true {
      if stopping.load(ordering: .acquiring) { return .stopRequested }
      var redrawNow = false
      if resized.exchange(false, ordering: .acquiringAndReleasing) {
        frame.invalidate()
        redrawNow = true
      }
      if redrawNow || Date() >= nextFrame {
        do { try draw() } catch { return .terminalLost("\(error)") }
        nextFrame = Date().addingTimeInterval(refreshSeconds)
      }
      var descriptors = [pollfd(fd: wake.pollDescriptor, events: Int16(POLLIN), revents: 0)]
      if let input = terminal.input { descriptors.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
      let timeout = Int32(max(0, min(1000, nextFrame.timeIntervalSinceNow * 1000)).rounded(.up))
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      guard ready > 0 else { continue }
      if descriptors[0].revents != 0 { drainWake() }
      if descriptors.count > 1 && descriptors[1].revents != 0 {
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(descriptors[1].fd, &bytes, bytes.count)
        if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
          return .terminalLost(count == 0 ? "end of input" : String(cString: strerror(errno)))
        }
        guard count > 0 else { continue }
        for key in keys.keys(from: bytes[0..<count]) {
          switch key {
          case .quit: return .quitKey
          case .interrupt: return .interruptKey
          default:
            selection.apply(key, channelCount: monitor.pipelines.count)
            nextFrame = Date()  // answer a key at once
          }
        }
      }
    }
  }

  /// Lays out and writes one frame.
  private func draw() throws(TerminalError) {
    let started = ProcessCPU.threadSeconds()
    let size = terminal.size
    let snapshot = ConsoleSnapshot(
      now: Date(), overview: monitor.overview, channels: monitor.statuses, events: log.recentEvents,
      cpuPercent: cpu.percentSinceLastSample(), timeZone: timeZone)
    let lines = ConsoleLayout.lines(snapshot, selection, width: size.width, height: size.height)
    let bytes = frame.update(to: lines)
    if !bytes.isEmpty { try terminal.write(bytes) }
    framesDrawn += 1
    drawingCPUSeconds += ProcessCPU.threadSeconds() - started
  }

  private func drainWake() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while recv(wake.pollDescriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
  }
}
