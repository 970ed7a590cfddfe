import CJack
import RingBuffer
import Synchronization

/// What `JackCapture` and `JackPlayback` do the same way: open a client without ever starting a server, read JACK's
/// lists of port names, connect two ports, allocate their rings, and close.
///
/// Threads: control threads only (never a JACK callback: these allocate, and `jack_port_get_all_connections` must
/// not be called from a JACK notification).
enum JackClientLibrary {
  /// Opens a client on a running server (`nil`: the default server, or `JACK_DEFAULT_SERVER`), never starting one.
  /// - Throws: `.serverNotRunning` when no server answers, `.clientOpenFailed` with JACK's status bits otherwise.
  static func openClient(named clientName: String, server serverName: String?) throws(JackClientError)
    -> OpaquePointer
  {
    var status = JackStatus(rawValue: 0)
    let opened =
      serverName.map { bm_jack_client_open(clientName, $0, 1, &status) }
      ?? bm_jack_client_open(
        clientName, nil, 1, &status)
    guard let client = opened else {
      if status.rawValue & JackServerFailed.rawValue != 0 { throw .serverNotRunning(server: serverName) }
      throw .clientOpenFailed(client: clientName, server: serverName, status: status.rawValue)
    }
    return client
  }

  /// The full names of the audio ports whose name matches `pattern` (a POSIX extended regular expression; empty
  /// matches all) and that have all of `flags` set, in JACK's order.
  static func audioPorts(of client: OpaquePointer, matching pattern: String, flags: JackPortFlags) -> [String] {
    takeNames(jack_get_ports(client, pattern, JACK_DEFAULT_AUDIO_TYPE, UInt(flags.rawValue)))
  }

  /// Copies a NULL-terminated list of C strings that libjack allocated (`jack_get_ports`,
  /// `jack_port_get_all_connections`) into Swift strings, and frees the list with `jack_free`.
  static func takeNames(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
    guard let list else { return [] }
    defer { jack_free(list) }
    var names: [String] = []
    var i = 0
    while let name = list[i] {
      names.append(String(cString: name))
      i += 1
    }
    return names
  }

  /// Connects an output port to an input port, both by full name.
  /// - Returns: 0 on success or when they were already connected, otherwise `jack_connect`'s error code.
  static func connect(_ client: OpaquePointer, source: String, destination: String) -> Int32 {
    let code = jack_connect(client, source, destination)
    let alreadyConnected = Int32(17)  // EEXIST
    return code == alreadyConnected ? 0 : code
  }

  /// One ring per port holding `seconds` of audio, at least two periods, rounded up to a power of two frames. The
  /// rings' pages are written once here, so the real-time side never takes a page fault on them.
  /// - Throws: `.invalidRingSize` when that is above `SPSCRingBuffer.maximumCapacity`.
  static func makeRings(
    count: Int, seconds: Double, sampleRate: Int, bufferSize: Int
  ) throws(JackClientError) -> [SPSCRingBuffer] {
    let frames = (seconds * Double(sampleRate)).rounded(.up)
    guard frames <= Double(SPSCRingBuffer.maximumCapacity) else {
      throw .invalidRingSize(seconds: seconds, reason: "above \(SPSCRingBuffer.maximumCapacity) frames per port")
    }
    let capacity = max(Int(frames), 2 * bufferSize)
    var rings: [SPSCRingBuffer] = []
    for _ in 0..<count {
      do {
        rings.append(try SPSCRingBuffer(minimumCapacity: capacity))
      } catch {
        throw .invalidRingSize(seconds: seconds, reason: error.description)
      }
    }
    return rings
  }

  /// Deactivates and closes the client in `client` (the callbacks have stopped when this returns) and leaves nil
  /// there; does nothing when it is nil already.
  static func close(_ client: borrowing Mutex<OpaquePointer?>) {
    client.withLock { client in
      guard let open = client else { return }
      jack_deactivate(open)
      jack_client_close(open)
      client = nil
    }
  }
}
