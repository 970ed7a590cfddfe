import CJack

/// A tiny JACK playback client for the tests: one output port, `out`, playing the ramp of `testRampValue`.
/// Threads: create and close on the test's thread; JACK's process thread runs `testToneProcess`.
final class TestToneClient {
  struct OpenError: Error, CustomStringConvertible {
    let description: String
  }

  /// The output port's full name, e.g. `bmtone:out`.
  let portName: String
  private var client: OpaquePointer?
  private let state: UnsafeMutablePointer<TestToneState>

  init(name: String, serverName: String) throws {
    var status = JackStatus(rawValue: 0)
    guard let client = bm_jack_client_open(name, serverName, 1, &status) else {
      throw OpenError(description: "tone client could not open (status 0x\(String(status.rawValue, radix: 16)))")
    }
    guard let port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
    else {
      jack_client_close(client)
      throw OpenError(description: "tone client could not register its output port")
    }
    state = .allocate(capacity: 1)
    state.initialize(to: TestToneState(port: port))
    guard jack_set_process_callback(client, testToneProcess, UnsafeMutableRawPointer(state)) == 0,
      jack_activate(client) == 0
    else {
      jack_client_close(client)
      state.deinitialize(count: 1)
      state.deallocate()
      throw OpenError(description: "tone client could not activate")
    }
    self.client = client
    portName = String(cString: jack_port_name(port))
  }

  deinit {
    close()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Ramp samples played so far.
  var samplesPlayed: Int { state.pointee.next.load(ordering: .relaxed) }

  func close() {
    guard let client else { return }
    jack_deactivate(client)
    jack_client_close(client)
    self.client = nil
  }
}
