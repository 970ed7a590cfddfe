import CJack
import RingBuffer
import Synchronization

/// A JACK client opened and activated the way `JackCapture` and `JackPlayback` both need it: the client opened on a
/// running server (never starting one), its ports registered, one ring per port allocated and pre-touched, the
/// callbacks' states allocated, the callbacks set (`jackXrun` and `jackShutdown` on the shared `JackClientState`,
/// the owner's own on its state), and the client activated. On any failure the client is closed and the states
/// freed before the error is thrown.
///
/// Threads: a control thread (never a JACK callback). The owner frees `state` and then `common` once the client is
/// closed (`JackClientLibrary.close(_:)`).
struct JackClientSetup<State: ~Copyable> {
  /// The open, active client.
  let client: OpaquePointer
  /// The name JACK gave the client.
  let clientName: String
  /// The ports' full names (`client:port`), in the order asked for.
  let fullPortNames: [String]
  /// The server's sample rate in Hz, and its frames per cycle when the client opened.
  let sampleRate: Int
  let bufferSize: Int
  /// One ring per port, in port order.
  let rings: [SPSCRingBuffer]
  /// The callbacks' shared state (ports, rings, xruns, shutdown) and the owner's own.
  let common: UnsafeMutablePointer<JackClientState>
  let state: UnsafeMutablePointer<State>

  /// - Parameters:
  ///   - portNames: short port names; non-empty and distinct.
  ///   - direction: `JackPortIsInput` (a capture) or `JackPortIsOutput` (a playback).
  ///   - ringSeconds: how much audio each ring holds (at least two periods; rounded up to a power of two frames).
  ///   - makeState: allocates the owner's callback state around the shared one.
  ///   - freeState: frees what `makeState` allocated (not the shared state).
  ///   - setCallbacks: sets the owner's callbacks (the process callback among them) with the state's pointer.
  /// - Throws: `JackClientError`, whose description says what to do.
  init(
    clientName: String, serverName: String?, portNames: [String], direction: JackPortFlags, ringSeconds: Double,
    makeState: (UnsafeMutablePointer<JackClientState>) -> UnsafeMutablePointer<State>,
    freeState: (UnsafeMutablePointer<State>) -> Void,
    setCallbacks: (OpaquePointer, UnsafeMutableRawPointer) throws(JackClientError) -> Void
  ) throws(JackClientError) {
    guard !portNames.isEmpty, !portNames.contains(""), Set(portNames).count == portNames.count else {
      throw .invalidPortNames(portNames)
    }
    guard ringSeconds.isFinite, ringSeconds > 0 else {
      throw .invalidRingSize(seconds: ringSeconds, reason: "it must be a positive number of seconds")
    }

    let jack = try JackClientLibrary.openClient(named: clientName, server: serverName)
    let sampleRate = Int(jack_get_sample_rate(jack))
    let bufferSize = Int(jack_get_buffer_size(jack))
    var common: UnsafeMutablePointer<JackClientState>?
    var state: UnsafeMutablePointer<State>?
    do throws(JackClientError) {
      // Ports, then rings (allocated and pre-touched), then the callbacks' states: all before activation.
      var ports: [OpaquePointer] = []
      for name in portNames {
        guard let port = jack_port_register(jack, name, JACK_DEFAULT_AUDIO_TYPE, UInt(direction.rawValue), 0)
        else { throw .portRegistrationFailed(port: name) }
        ports.append(port)
      }
      let rings = try JackClientLibrary.makeRings(
        count: ports.count, seconds: ringSeconds, sampleRate: sampleRate, bufferSize: bufferSize)
      let shared = JackClientState.allocate(client: jack, ports: ports, rings: rings.map(\.handle))
      common = shared
      let own = makeState(shared)
      state = own

      let sharedContext = UnsafeMutableRawPointer(shared)
      guard jack_set_xrun_callback(jack, jackXrun, sharedContext) == 0 else {
        throw .callbackSetupFailed(what: "xrun")
      }
      try setCallbacks(jack, UnsafeMutableRawPointer(own))
      jack_on_shutdown(jack, jackShutdown, sharedContext)
      let code = jack_activate(jack)
      guard code == 0 else { throw .activationFailed(code: code) }

      self.clientName = String(cString: jack_get_client_name(jack))
      self.fullPortNames = ports.map { String(cString: jack_port_name($0)) }
      self.rings = rings
      self.common = shared
      self.state = own
    } catch {
      jack_client_close(jack)  // no callback runs after this returns
      if let state { freeState(state) }
      if let common { JackClientState.deallocate(common) }
      throw error
    }
    self.client = jack
    self.sampleRate = sampleRate
    self.bufferSize = bufferSize
  }

}
