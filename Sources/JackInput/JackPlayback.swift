import CJack
import Glibc
import RingBuffer
import Synchronization

/// A JACK client with named audio output ports, each playing from its own lock-free ring that a feeder thread fills.
///
/// `init` opens the client (never starting a server), registers the output ports, allocates and pre-touches one
/// ring per port, hands the callbacks their preallocated `JackPlaybackState`, and activates (`JackClientSetup`, as
/// for a capture): from then on JACK's process thread copies every cycle's worth of frames from the rings to the
/// ports (`JackRealtimeCallbacks.swift`), the same number from every ring so that the channels stay aligned, and
/// plays silence where the rings run dry.
/// The feeder queues interleaved audio with `enqueue(_:)`, which waits while the rings are full: that is what paces a
/// file to real time. `waitUntilPlayedOut` then returns once the last queued frame has gone out.
///
/// One server per process: libjack keeps the graph of the server its clients talk to in process-wide globals, so
/// every JACK client of a process (captures, playbacks) must be on the same server.
///
/// Threads:
/// - `enqueue(_:)`, `finish()` and `waitUntilPlayedOut(timeoutSeconds:)` are for one feeder thread (never a JACK
///   callback; the rings have this one producer).
/// - `init`, `connect(port:to:)`, `destinationPorts(matching:)` and `close()` are for a control thread (any thread
///   but JACK's own; they take a lock that the real-time callback never takes). The feeder thread may be it.
/// - `stop()` and the counters (`framesPlayed`, `underruns`, `xruns`, `serverShutDown`, `isStopped`) are for any
///   thread, also after `close()`.
/// - JACK's process thread calls `jackPlaybackProcess`; its notification thread calls `jackXrun` and
///   `jackShutdown`.
public final class JackPlayback: @unchecked Sendable {
  /// The name JACK gave the client (the requested name unless JACK had to make it unique).
  public let clientName: String
  /// The server's name, `nil` for the default server.
  public let serverName: String?
  /// The output ports' short names, in the order given to `init`: the channel order of `enqueue(_:)`.
  public let portNames: [String]
  /// The output ports' full names (`client:port`).
  public let fullPortNames: [String]
  /// The server's sample rate in Hz: the rate to queue audio at.
  public let sampleRate: Int
  /// Frames per JACK cycle when the playback opened.
  public let bufferSize: Int

  /// One ring per port, in `portNames` order; the feeder thread is their one producer.
  private let rings: [SPSCRingBuffer]
  /// The open client; `nil` once closed. Never touched by the callbacks.
  private let client: Mutex<OpaquePointer?>
  /// Shared with the callbacks; freed in `deinit`, after the client is closed.
  private let common: UnsafeMutablePointer<JackClientState>
  private let state: UnsafeMutablePointer<JackPlaybackState>
  /// Set by `stop()` and `close()`: the feeder's waits give up.
  private let stopRequested = Atomic<Bool>(false)

  /// Opens a client on a running JACK server with one output port per channel and starts playing (silence, until
  /// audio is queued).
  /// - Parameters:
  ///   - clientName: the client name to ask JACK for.
  ///   - serverName: a server started with `jackd -n NAME`; `nil` for the default (or `JACK_DEFAULT_SERVER`).
  ///   - portNames: short output port names, one per channel, e.g. `["out_L", "out_R"]`; non-empty and distinct.
  ///   - ringSeconds: how much audio each ring holds ahead of the output (at least two periods; rounded up to a
  ///     power of two frames). It is also how far the feeder runs ahead of what is heard.
  /// - Throws: `JackClientError`, whose description says what to do.
  public init(
    clientName: String, serverName: String? = nil, portNames: [String], ringSeconds: Double = 1
  ) throws(JackClientError) {
    let setup = try JackClientSetup<JackPlaybackState>(
      clientName: clientName, serverName: serverName, portNames: portNames, direction: JackPortIsOutput,
      ringSeconds: ringSeconds, makeState: JackPlaybackState.allocate(common:), freeState: JackPlaybackState.deallocate
    ) { jack, context throws(JackClientError) in
      guard jack_set_process_callback(jack, jackPlaybackProcess, context) == 0 else {
        throw .callbackSetupFailed(what: "process")
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
    JackPlaybackState.deallocate(state)
    JackClientState.deallocate(common)
  }

  /// The wall-clock time (seconds since 1970, UTC) at which the first queued frame was played: the start of the
  /// JACK cycle that played it, which is also when clients connected to these ports captured it. `nil` until then,
  /// or once the client is closed. Non-JACK thread.
  public var firstAudioWallClockSeconds: Double? {
    guard state.pointee.firstAudioRecorded.load(ordering: .acquiring) else { return nil }
    let frame = state.pointee.firstAudioFrame.load(ordering: .relaxed)
    let times: (usecs: UInt64, nowUsecs: UInt64)? = client.withLock { client in
      guard let client, !serverShutDown else { return nil }
      return (jack_frames_to_time(client, frame), jack_get_time())
    }
    guard let times else { return nil }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let ago = Double(Int64(bitPattern: times.nowUsecs &- times.usecs)) / 1_000_000
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000 - ago
  }

  /// Frames played from the rings since activation (per port), not counting the silence of underruns. Any thread.
  public var framesPlayed: Int { state.pointee.framesPlayed.load(ordering: .acquiring) }

  /// Silent frames played because the feeder fell behind: the rings ran dry after the first audio was queued and
  /// before `finish()`. Any thread.
  public var underruns: Int { state.pointee.underrunFrames.load(ordering: .relaxed) }

  /// Xruns the server reported since activation. Any thread.
  public var xruns: Int { common.pointee.xruns.load(ordering: .relaxed) }

  /// True once the server shut down or dropped this client; nothing is played any more. Any thread.
  public var serverShutDown: Bool { common.pointee.serverShutDown.load(ordering: .acquiring) }

  /// True once `stop()` or `close()` was called. Any thread.
  public var isStopped: Bool { stopRequested.load(ordering: .acquiring) }

  /// True until `close()`.
  public var isOpen: Bool { client.withLock { $0 != nil } }

  /// Full names of the server's audio input ports (where a playback can play into) whose full name matches
  /// `pattern`, a POSIX extended regular expression (e.g. `"^system:playback_"`; empty matches all). Control thread.
  public func destinationPorts(matching pattern: String) throws(JackClientError) -> [String] {
    let names: [String]? = client.withLock { client in
      client.map { JackClientLibrary.audioPorts(of: $0, matching: pattern, flags: JackPortIsInput) }
    }
    guard let names, !serverShutDown else { throw .notRunning }
    return names
  }

  /// Connects one of this playback's output ports (short name like `out_L`, or full name) to an audio input port of
  /// any client (full name like `system:playback_1` or `monitor:ch1_L`). Already connected is not an error.
  /// Control thread.
  /// - Throws: `.unknownPort` for a port that is not this playback's; `.destinationNotFound`, listing the server's
  ///   audio input ports, when `destination` is not one of them; `.connectionFailed`; `.notRunning`.
  public func connect(port: String, to destination: String) throws(JackClientError) {
    guard let index = portNames.firstIndex(of: port) ?? fullPortNames.firstIndex(of: port) else {
      throw .unknownPort(port)
    }
    let source = fullPortNames[index]
    enum Outcome {
      case closed
      case missing(available: [String])
      case code(Int32)
    }
    let outcome: Outcome = client.withLock { client in
      guard let client else { return .closed }
      let inputs = JackClientLibrary.audioPorts(of: client, matching: "", flags: JackPortIsInput)
      guard inputs.contains(destination) else { return .missing(available: inputs) }
      return .code(JackClientLibrary.connect(client, source: source, destination: destination))
    }
    guard !serverShutDown else { throw .notRunning }
    switch outcome {
    case .closed: throw .notRunning
    case .missing(let available): throw .destinationNotFound(destination, available: available)
    case .code(let code):
      guard code == 0 else { throw .connectionFailed(source: source, destination: destination, code: code) }
    }
  }

  /// Queues interleaved audio, one channel per port in `portNames` order, at `sampleRate`. Waits (in sleeps of a
  /// quarter period) while the rings are full, so a feeder that queues a file chunk by chunk runs at the pace of the
  /// output. Feeder thread only.
  /// - Returns: true once every frame is queued; false as soon as the playback is stopped or closed or its server
  ///   shut down (the rest of `interleaved` is dropped).
  /// - Precondition: `interleaved.count` is a multiple of `portNames.count`.
  @discardableResult
  public func enqueue(_ interleaved: UnsafeBufferPointer<Float>) -> Bool {
    let channels = rings.count
    precondition(interleaved.count % channels == 0, "enqueue takes whole frames of \(channels) channels")
    guard let base = interleaved.baseAddress else { return !isStopped && !serverShutDown }
    let frames = interleaved.count / channels
    let chunk = 4096
    var done = 0
    return withUnsafeTemporaryAllocation(of: Float.self, capacity: chunk) { scratch in
      while done < frames {
        guard !isStopped, !serverShutDown else { return false }
        let free = rings.reduce(Int.max) { min($0, $1.availableToWrite) }
        let n = min(frames - done, free, chunk)
        guard n > 0 else {
          usleep(UInt32(max(1_000, bufferSize * 250_000 / max(sampleRate, 1))))
          continue
        }
        for (channel, ring) in rings.enumerated() {
          if channels == 1 {
            ring.write(UnsafeBufferPointer(start: base + done, count: n))
          } else {
            var source = base + done * channels + channel
            for i in 0..<n {
              scratch[i] = source.pointee
              source += channels
            }
            ring.write(UnsafeBufferPointer(rebasing: scratch[0..<n]))
          }
        }
        state.pointee.audioQueued.store(true, ordering: .releasing)
        done += n
      }
      return true
    }
  }

  /// Signals the end of the stream: from now on, rings that run dry play silence without counting underruns.
  /// Feeder thread, after its last `enqueue(_:)`.
  public func finish() {
    state.pointee.endOfStream.store(true, ordering: .releasing)
  }

  /// Signals the end of the stream (`finish()`) and waits until everything queued has been played: the rings are
  /// empty and one more full period has gone out. Feeder thread.
  /// - Parameter timeoutSeconds: how long to wait at most; `nil` for the rings' duration plus one second.
  /// - Returns: true once played out; false when stopped, closed, the server shut down, or the time ran out.
  public func waitUntilPlayedOut(timeoutSeconds: Double? = nil) -> Bool {
    finish()
    let limit = timeoutSeconds ?? Double(rings.map(\.capacity).max() ?? 0) / Double(max(sampleRate, 1)) + 1
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + limit
    let pause = UInt32(max(1_000, bufferSize * 250_000 / max(sampleRate, 1)))
    func waiting() -> Bool {
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      guard !isStopped, !serverShutDown, Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 < end else { return false }
      usleep(pause)
      return true
    }
    while rings.contains(where: { $0.availableToRead > 0 }) {
      guard waiting() else { return false }
    }
    // The cycle that took the last frames may still be running: wait for the next one to complete too.
    let drainedAt = state.pointee.cycles.load(ordering: .acquiring)
    while state.pointee.cycles.load(ordering: .acquiring) < drainedAt + 2 {
      guard waiting() else { return false }
    }
    return true
  }

  /// Makes `enqueue(_:)` and `waitUntilPlayedOut(timeoutSeconds:)` give up soon (within a quarter period) and
  /// return false; the client keeps playing what is queued until `close()`. Any thread, e.g. a signal handler's
  /// dispatch queue.
  public func stop() {
    stopRequested.store(true, ordering: .releasing)
  }

  /// Stops the feeder's waits, deactivates and closes the client; the callbacks have stopped when this returns.
  /// The counters stay readable. Calling it again does nothing. Control thread.
  public func close() {
    stop()
    JackClientLibrary.close(client)
  }
}
