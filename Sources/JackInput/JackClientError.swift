import CJack
import RingBuffer

/// Why a `JackCapture` or a `JackPlayback` could not open, set up or connect. Each description says what to do about
/// it.
public enum JackClientError: Error, Equatable, CustomStringConvertible {
  /// No JACK server answered under this name (`nil`: the default server).
  case serverNotRunning(server: String?)
  /// The server refused or failed to open the client; `status` is JACK's `jack_status_t` bit set.
  case clientOpenFailed(client: String, server: String?, status: UInt32)
  /// The client was asked for no ports, or for a name twice.
  case invalidPortNames([String])
  /// `ringSeconds` was not a positive, finite duration, or made a ring too large.
  case invalidRingSize(seconds: Double, reason: String)
  /// JACK would not register a port with this name.
  case portRegistrationFailed(port: String)
  /// JACK refused one of the callbacks (`what` names it).
  case callbackSetupFailed(what: String)
  /// `jack_activate` failed with this code.
  case activationFailed(code: Int32)
  /// `port` is not one of this client's ports.
  case unknownPort(String)
  /// A playback was to be connected to `port`, and the server has no audio input port of that name; `available`
  /// lists the audio input ports it has.
  case destinationNotFound(String, available: [String])
  /// `jack_connect` failed with this code.
  case connectionFailed(source: String, destination: String, code: Int32)
  /// The client was closed, or the server shut down.
  case notRunning

  public var description: String {
    switch self {
    case .serverNotRunning(let server):
      let which = server.map { "JACK server \"\($0)\"" } ?? "JACK server"
      let start = server.map { "jackd -n \($0) -d dummy" } ?? "jackd -d dummy"
      return "\(which) not running: start it with `\(start)` (no sound card) or `jackd -d alsa`, "
        + "or set JACK_DEFAULT_SERVER to the name of a running server"
    case .clientOpenFailed(let client, let server, let status):
      let reasons = Self.reasons(status).joined(separator: ", ")
      return "JACK could not open client \"\(client)\" on \(server.map { "server \"\($0)\"" } ?? "the default server")"
        + " (status 0x\(String(status, radix: 16)): \(reasons))"
    case .invalidPortNames(let names):
      return "JACK port names must be non-empty and distinct, got \(names); give e.g. [\"ch1_L\", \"ch1_R\"]"
    case .invalidRingSize(let seconds, let reason):
      return "ring size of \(seconds) s per port is not usable: \(reason); give a few seconds, e.g. 10"
    case .portRegistrationFailed(let port):
      return "JACK would not register port \"\(port)\": use a shorter name without ':' "
        + "that this client does not already have"
    case .callbackSetupFailed(let what):
      return "JACK refused the \(what) callback; is the client already active?"
    case .activationFailed(let code):
      return "jack_activate failed (code \(code)); check the server's log for why it refused the client"
    case .unknownPort(let port):
      return "\"\(port)\" is not one of this client's ports; use a name from `portNames`"
    case .destinationNotFound(let port, let available):
      let choices =
        available.isEmpty
        ? "the server has no audio input port at all: start the program that should receive the audio first"
        : "use one of the server's audio input ports: \(available.joined(separator: ", "))"
      return "JACK has no audio input port \"\(port)\" to play into; \(choices)"
    case .connectionFailed(let source, let destination, let code):
      return "could not connect \"\(source)\" to \"\(destination)\" (code \(code)): check that the source exists "
        + "and is an audio output (`jack_lsp`, or `sourcePorts(matching:)`), and the destination an audio input"
    case .notRunning:
      return "the JACK client is closed or its server shut down: open a new JackCapture or JackPlayback"
    }
  }

  /// Names of the bits set in a `jack_status_t`, with advice where JACK's name alone does not say enough.
  static func reasons(_ status: UInt32) -> [String] {
    let known: [(JackStatus, String)] = [
      (JackFailure, "overall failure"),
      (JackInvalidOption, "invalid or unsupported option"),
      (JackNameNotUnique, "client name already taken (pick another name)"),
      (JackServerStarted, "server started"),
      (JackServerFailed, "could not connect to the server"),
      (JackServerError, "communication error with the server"),
      (JackNoSuchClient, "no such client"),
      (JackLoadFailure, "could not load internal client"),
      (JackInitFailure, "could not initialize client"),
      (JackShmFailure, "could not access shared memory (same user as jackd? /dev/shm mounted?)"),
      (JackVersionError, "client/server protocol version mismatch (reinstall matching jackd and libjack)"),
      (JackBackendError, "backend error"),
      (JackClientZombie, "client zombified"),
    ]
    let names = known.filter { status & $0.0.rawValue != 0 }.map(\.1)
    return names.isEmpty ? ["no reason given"] : names
  }
}
