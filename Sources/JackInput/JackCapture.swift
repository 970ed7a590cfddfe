import CJack
import RingBuffer
import Synchronization

/// A JACK client with named audio input ports, each feeding its own lock-free ring.
///
/// `init` opens the client (never starting a server), registers the ports, allocates and pre-touches one ring per
/// port, hands the callbacks their preallocated `JackCaptureState`, and activates (`JackClientSetup`, as for a
/// playback): from then on JACK's process thread copies every cycle of every port into that port's ring
/// (`JackRealtimeCallbacks.swift`).
///
/// One server per process: libjack keeps the graph of the server its clients talk to in process-wide globals, so
/// every JACK client of a process (captures, playbacks) must be on the same server.
///
/// Threads:
/// - `init`, `connect(source:to:)`, `sourcePorts(matching:)`, `connections(of:)`, `portExists(_:)`, `jackTime(ofFrame:)`,
///   `wallClockSeconds(ofFrame:)` and `close()` are for non-JACK threads (a control thread or a worker; never a JACK
///   callback). They take a lock that the real-time callback never takes, so several threads may call them.
/// - Each ring in `rings` has exactly one consumer: read it from one worker thread only.
/// - The counters (`framesProcessed`, `firstFrameTime`, `lastFrameTime`, `overruns`, `xruns`, `graphChanges`,
///   `serverShutDown`) are atomics that any thread may read, also after `close()`.
/// - JACK's process thread calls `jackProcess`; its notification thread calls `jackXrun`, `jackShutdown`,
///   `jackPortRegistered` and `jackPortConnected`.
public final class JackCapture: @unchecked Sendable {
  /// The name JACK gave the client (the requested name unless JACK had to make it unique).
  public let clientName: String
  /// The server's name, `nil` for the default server.
  public let serverName: String?
  /// The input ports' short names, in the order given to `init`.
  public let portNames: [String]
  /// The input ports' full names (`client:port`), the names other clients connect to.
  public let fullPortNames: [String]
  /// The server's sample rate in Hz.
  public let sampleRate: Int
  /// Frames per JACK cycle when the capture opened.
  public let bufferSize: Int
  /// One ring per port, in `portNames` order. Each has one consumer thread.
  public let rings: [SPSCRingBuffer]

  /// The open client; `nil` once closed. Never touched by the callbacks.
  let client: Mutex<OpaquePointer?>
  /// Shared with the callbacks; freed in `deinit`, after the client is closed.
  let common: UnsafeMutablePointer<JackClientState>
  let state: UnsafeMutablePointer<JackCaptureState>

  /// Opens a client on a running JACK server and starts capturing into one ring per port.
  /// - Parameters:
  ///   - clientName: the client name to ask JACK for.
  ///   - serverName: a server started with `jackd -n NAME`; `nil` for the default (or `JACK_DEFAULT_SERVER`).
  ///   - portNames: short input port names, e.g. `["ch1_L", "ch1_R"]`; non-empty and distinct.
  ///   - ringSeconds: how much audio each ring holds before it overruns (rounded up to a power of two frames).
  /// - Throws: `JackClientError`, whose description says what to do.
  public init(
    clientName: String, serverName: String? = nil, portNames: [String], ringSeconds: Double = 10
  ) throws(JackClientError) {
    let setup = try JackClientSetup<JackCaptureState>(
      clientName: clientName, serverName: serverName, portNames: portNames, direction: JackPortIsInput,
      ringSeconds: ringSeconds, makeState: JackCaptureState.allocate(common:), freeState: JackCaptureState.deallocate
    ) { jack, context throws(JackClientError) in
      guard jack_set_process_callback(jack, jackProcess, context) == 0 else {
        throw .callbackSetupFailed(what: "process")
      }
      guard jack_set_port_registration_callback(jack, jackPortRegistered, context) == 0 else {
        throw .callbackSetupFailed(what: "port registration")
      }
      guard jack_set_port_connect_callback(jack, jackPortConnected, context) == 0 else {
        throw .callbackSetupFailed(what: "port connect")
      }
    }
    self.clientName = setup.clientName
    self.serverName = serverName
    self.portNames = portNames
    self.fullPortNames = setup.fullPortNames
    self.sampleRate = setup.sampleRate
    self.bufferSize = setup.bufferSize
    self.rings = setup.rings
    self.common = setup.common
    self.state = setup.state
    self.client = Mutex(setup.client)
  }

  deinit {
    close()
    JackCaptureState.deallocate(state)
    JackClientState.deallocate(common)
  }

  /// Frames captured per port since activation. Any thread.
  public var framesProcessed: Int { state.pointee.framesProcessed.load(ordering: .acquiring) }

  /// JACK's frame time at the start of the latest captured cycle. Any thread.
  public var lastFrameTime: UInt32 { state.pointee.lastFrameTime.load(ordering: .relaxed) }

  /// Samples dropped per port because its ring was full (the consumer fell behind), in `portNames` order.
  public var overruns: [Int] {
    (0..<portNames.count).map(overruns(ofPortAt:))
  }

  /// Samples dropped so far on the port at `index` in `portNames`: one atomic load, for a worker that checks its
  /// own ports after every read. Any thread.
  public func overruns(ofPortAt index: Int) -> Int {
    state.pointee.overruns[index].load(ordering: .relaxed)
  }

  /// Xruns the server reported since activation. Any thread.
  public var xruns: Int { common.pointee.xruns.load(ordering: .relaxed) }

  /// True once the server shut down or dropped this client; the capture then gets no more audio. Any thread.
  public var serverShutDown: Bool { common.pointee.serverShutDown.load(ordering: .acquiring) }

  /// The ring of the port with this short name. Read it from one consumer thread only.
  public func ring(named port: String) -> SPSCRingBuffer? {
    portNames.firstIndex(of: port).map { rings[$0] }
  }

  /// Connects a source (an output port of any client, by full name like `system:capture_1`) to one of this
  /// capture's input ports (short name like `ch1_L`, or full name). Already connected is not an error.
  /// Control thread.
  public func connect(source: String, to port: String) throws(JackClientError) {
    guard let index = portNames.firstIndex(of: port) ?? fullPortNames.firstIndex(of: port) else {
      throw .unknownPort(port)
    }
    let destination = fullPortNames[index]
    let code: Int32? = client.withLock { client in
      guard let client else { return nil }
      return JackClientLibrary.connect(client, source: source, destination: destination)
    }
    guard let code, !serverShutDown else { throw .notRunning }
    guard code == 0 else {
      throw .connectionFailed(source: source, destination: destination, code: code)
    }
  }

  /// Full names of the audio output ports (sources) whose full name matches `pattern`, a POSIX extended regular
  /// expression (e.g. `"^system:capture_"`; empty matches all). Control thread.
  public func sourcePorts(matching pattern: String) throws(JackClientError) -> [String] {
    let names: [String]? = client.withLock { client in
      client.map { JackClientLibrary.audioPorts(of: $0, matching: pattern, flags: JackPortIsOutput) }
    }
    guard let names, !serverShutDown else { throw .notRunning }
    return names
  }

  /// True until `close()`.
  public var isOpen: Bool { client.withLock { $0 != nil } }

  /// Deactivates and closes the client; the callbacks have stopped when this returns. The rings and counters stay
  /// readable. Calling it again does nothing. Control thread.
  public func close() {
    JackClientLibrary.close(client)
  }
}
