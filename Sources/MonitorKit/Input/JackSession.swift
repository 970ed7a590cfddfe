import Foundation
import JackInput
import Synchronization

/// The monitor's one JACK client, kept alive across JACK server restarts, with the auto-connections of every JACK
/// channel.
///
/// A supervisor thread opens the client (registering every channel's input ports before activation), connects
/// each channel's configured source ports, and watches: when a source port appears later, it is connected; when one
/// disappears, the channel gets a gap notice; when the server goes away, the client is dropped and re-created as
/// soon as the server answers again (polled every `retrySeconds`), with its ports and connections. Each client is
/// one `Generation`; the channels' inputs follow the current generation and start a new segment when it changes.
///
/// Threads: `start()` and `stop()` from the control thread; the supervisor is the session's own thread; `current`
/// and the counters from any thread.
final class JackSession: @unchecked Sendable {
  /// One JACK client's lifetime: from opening it to losing the server.
  final class Generation: Sendable {
    let number: Int
    let capture: JackCapture
    init(number: Int, capture: JackCapture) {
      self.number = number
      self.capture = capture
    }
  }

  /// A JACK channel: its input ports and where to connect them from.
  struct Channel: Sendable {
    var name: String
    var source: JackSource
    var ports: [String]
  }

  let settings: JackSettings
  let channels: [Channel]
  private let log: MonitorLog
  private let retrySeconds: Double
  private let generation = Mutex<Generation?>(nil)
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  private let sourceNotices = Mutex<[String: [InputNotice]]>([:])
  private var started = false
  // Supervisor thread only.
  private var generationCount = 0
  private var lastGraphChanges = -1
  private var lastConnectionCheck = Date.distantPast
  private var sourcesPresent: [String: Bool] = [:]
  /// Channels whose sources were present at least once: only those can come back.
  private var sourcesSeen: Set<String> = []
  private var lastOpenError: String?
  private var lostAt: Date?
  private var xrunsLogged = 0
  private var lastXrunLog = Date.distantPast

  init(settings: JackSettings, channels: [Channel], log: MonitorLog, retrySeconds: Double = 1) {
    self.settings = settings
    self.channels = channels
    self.log = log
    self.retrySeconds = retrySeconds
  }

  /// The client now, or nil while the server is away. Any thread.
  var current: Generation? { generation.withLock { $0 } }

  /// Notices about a channel's source ports (gone, back) since the last call. The channel's worker thread.
  func takeSourceNotices(channel: String) -> [InputNotice] {
    sourceNotices.withLock { $0.removeValue(forKey: channel) ?? [] }
  }

  /// Opens the client now if the server is up (so that a configuration error shows at once), then supervises it
  /// from a thread of its own. A server that is not running is not an error: the session keeps trying. Control
  /// thread.
  func start() {
    guard !started else { return }
    started = true
    tick()
    let thread = Thread { [self] in
      while !stopping.load(ordering: .acquiring) {
        Thread.sleep(forTimeInterval: 0.1)
        tick()
      }
      generation.withLock { $0?.capture.close() }
      finished.signal()
    }
    thread.name = "jack-supervisor"
    thread.start()
  }

  /// Stops supervising and closes the client; a second call does nothing. Control thread.
  func stop() {
    guard started, !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    finished.wait()
  }

  private var nextAttempt = Date.distantPast

  /// One supervision step. Supervisor thread (or the control thread in `start`, before the supervisor exists).
  private func tick() {
    if let current, current.capture.serverShutDown {
      current.capture.close()
      generation.withLock { $0 = nil }
      lostAt = Date()
      log.line(
        "JACK server \(serverText) went away; retrying every \(Int(retrySeconds)) s until it is back",
        severity: .warning)
    }
    guard let current else {
      if Date() >= nextAttempt { open() }
      return
    }
    let xruns = current.capture.xruns
    if xruns > xrunsLogged && Date().timeIntervalSince(lastXrunLog) >= 10 {  // one line per 10 s at most
      log.line(
        "JACK xrun: the server missed its deadline \(xruns - xrunsLogged) time\(xruns - xrunsLogged == 1 ? "" : "s") "
          + "(\(xruns) since the client opened); audio may have been lost on every JACK channel. A larger period "
          + "(jackd -p 2048) or real-time scheduling for jackd helps", severity: .warning)
      xrunsLogged = xruns
      lastXrunLog = Date()
    }
    let changes = current.capture.graphChanges
    if changes != lastGraphChanges || Date().timeIntervalSince(lastConnectionCheck) >= 2 {
      lastGraphChanges = changes
      lastConnectionCheck = Date()
      connectSources(current.capture)
    }
  }

  private var serverText: String { settings.serverName.map { "'\($0)'" } ?? "(default)" }

  private func open() {
    nextAttempt = Date().addingTimeInterval(retrySeconds)
    let ports = channels.flatMap(\.ports)
    do {
      let capture = try JackCapture(
        clientName: settings.clientName, serverName: settings.serverName, portNames: ports,
        ringSeconds: settings.ringSeconds)
      generationCount += 1
      let fresh = Generation(number: generationCount, capture: capture)
      generation.withLock { $0 = fresh }
      lastOpenError = nil
      lastGraphChanges = -1
      xrunsLogged = 0
      sourcesPresent = [:]
      if let lostAt {
        log.line(
          String(
            format: "JACK server %@ is back after %.1f s: client '%@' re-created with %d ports", serverText,
            Date().timeIntervalSince(lostAt), capture.clientName, ports.count))
        self.lostAt = nil
      } else {
        log.line(
          "JACK client '\(capture.clientName)' on server \(serverText): \(capture.sampleRate) Hz, "
            + "\(capture.bufferSize) frames per period, \(ports.count) input ports")
      }
      connectSources(capture)
    } catch {
      let message = "\(error)"
      if message != lastOpenError {
        lastOpenError = message
        log.line("JACK: \(message) (retrying every \(Int(retrySeconds)) s)", severity: .warning)
      }
    }
  }

  /// Connects every channel's configured sources that exist and are not connected yet; notes sources that
  /// disappeared or came back.
  private func connectSources(_ capture: JackCapture) {
    for channel in channels {
      guard let wanted = resolveSources(channel, capture) else { continue }
      let present = wanted.allSatisfy { $0.map(capture.portExists) ?? false }
      let wasPresent = sourcesPresent[channel.name]
      sourcesPresent[channel.name] = present
      for (port, source) in zip(channel.ports, wanted) {
        guard let source, capture.portExists(source) else { continue }
        let connected = (try? capture.connections(of: port)) ?? []
        guard !connected.contains(source) else { continue }
        do {
          try capture.connect(source: source, to: port)
          log.line("connected JACK port \(source) → \(capture.clientName):\(port)", channel: channel.name)
        } catch {
          log.line("cannot connect \(source) → \(port): \(error)", channel: channel.name, severity: .warning)
        }
      }
      let seenBefore = sourcesSeen.contains(channel.name)
      if present { sourcesSeen.insert(channel.name) }
      let now = Date().timeIntervalSince1970
      let describe = wanted.compactMap { $0 }.joined(separator: ", ")
      if wasPresent == true && !present {
        post(
          InputNotice(
            kind: .gap, startTime: now, detail: "JACK source port \(describe) disappeared; waiting for it to return"),
          to: channel.name)
      } else if wasPresent == false && present && seenBefore {
        post(
          InputNotice(kind: .reconnect, startTime: now, endTime: now, detail: "JACK source \(describe) is back"),
          to: channel.name)
      } else if wasPresent == nil && !present {
        log.line(
          "JACK source \(describe.isEmpty ? "for pattern" : describe) not found yet; connecting when it appears",
          channel: channel.name)
      }
    }
  }

  /// The source port for each of the channel's ports (nil for a side with none yet), or nil when the channel has
  /// no auto-connection.
  private func resolveSources(_ channel: Channel, _ capture: JackCapture) -> [String?]? {
    guard !channel.source.connect.isEmpty || channel.source.connectPattern != nil else { return nil }
    let available = channel.source.connect.isEmpty ? ((try? capture.sourcePorts(matching: "")) ?? []) : []
    let chosen = channel.source.sourcePorts(among: available)
    return channel.ports.indices.map { $0 < chosen.count ? chosen[$0] : nil }
  }

  private func post(_ notice: InputNotice, to channel: String) {
    sourceNotices.withLock { $0[channel, default: []].append(notice) }
  }
}
