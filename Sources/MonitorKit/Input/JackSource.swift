import Common
import Matcher

/// A channel captured from JACK: the ports broadcast-monitor registers for it and, optionally, the source ports it
/// connects them to at start (and again when they reappear).
///
/// JSON: `{jack: {ports: "stereo", connect: ["system:capture_1", "system:capture_2"]}}`; the command line writes it
/// `jack:system:capture_1,system:capture_2` (see `ChannelSource+CommandLine.swift`).
///
/// Threads: a value; any thread.
struct JackSource: Codable, Sendable, Equatable {
  /// Two ports, `NAME_L` and `NAME_R`, downmixed to mono; otherwise one port, `NAME`. JSON `ports: "stereo"` (the
  /// default) or `"mono"`.
  var stereo: Bool
  /// Exact full names of the source ports to connect (`system:capture_1`): two for stereo (left, then right), one
  /// for mono. Empty (the default): connect by `connectPattern`, or leave the connections to the operator
  /// (`jack_connect`, a patchbay).
  var connect: [String] = []
  /// Instead of `connect`: a POSIX extended regular expression over source port full names, searched like
  /// `jack_get_ports` does (unanchored). The matching ports are sorted by name; stereo takes the first two (left,
  /// right), mono the first. Default nil.
  var connectPattern: String? = nil

  /// How many ports the channel registers: 2 for stereo, 1 for mono.
  var portCount: Int { stereo ? 2 : 1 }

  /// The short names of the channel's own ports: `["NAME_L", "NAME_R"]` for stereo, `["NAME"]` for mono.
  func portNames(channel: String) -> [String] {
    stereo ? [channel + "_L", channel + "_R"] : [channel]
  }

  /// The source ports to connect, in port order, chosen among the full port names JACK lists: `connect` as given
  /// (even if absent from `available`: JACK then reports which one is missing), or the sorted matches of
  /// `connectPattern` (at most `portCount`), or none. A pattern that matches fewer ports than `portCount` gives
  /// fewer: the caller connects what there is and says what is missing.
  func sourcePorts(among available: [String]) -> [String] {
    if !connect.isEmpty { return connect }
    guard let connectPattern, let regex = try? POSIXRegex(connectPattern) else { return [] }
    return Array(available.filter(regex.matches).sorted().prefix(portCount))
  }

  /// What makes this source unusable, as the key under `jack` and the reason with its fix; nil when it is usable.
  func problem() -> (key: String, reason: String)? {
    if !connect.isEmpty && connectPattern != nil {
      return ("connectPattern", "give either `connect` (exact port names) or `connectPattern`, not both")
    }
    for port in connect {
      let parts = port.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count != 2 || parts[0].isEmpty || parts[1].isEmpty {
        return (
          "connect",
          "`\(port)` is not a full JACK port name CLIENT:PORT such as system:capture_1; `jack_lsp` lists them"
        )
      }
    }
    if !connect.isEmpty && connect.count != portCount {
      let wanted = stereo ? "two source ports (left, then right)" : "one source port"
      let other =
        stereo ? "use ports: \"mono\" (jack-mono:SRC) for one" : "use ports: \"stereo\" (jack:SRC_L,SRC_R) for two"
      return ("connect", "a \(stereo ? "stereo" : "mono") channel connects \(wanted), not \(connect.count); \(other)")
    }
    if let connectPattern {
      if connectPattern.isEmpty {
        return ("connectPattern", "is empty; give a regular expression such as ^system:capture_[12]$, or remove it")
      }
      do { _ = try POSIXRegex(connectPattern) } catch {
        return ("connectPattern", "`\(connectPattern)` is not a POSIX extended regular expression: \(error.message)")
      }
    }
    return nil
  }

  // MARK: JSON

  enum CodingKeys: String, CodingKey, CaseIterable {
    case ports
    case connect
    case connectPattern
  }

  /// `ports` is `"stereo"` or `"mono"`.
  enum Ports: String, Codable, CaseIterable {
    case stereo
    case mono

    init(from decoder: any Decoder) throws { self = try decoder.word(of: Self.self) }
  }

  init(stereo: Bool, connect: [String] = [], connectPattern: String? = nil) {
    self.stereo = stereo
    self.connect = connect
    self.connectPattern = connectPattern
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let ports = try c.decodeIfPresent(String.self, forKey: .ports) ?? Ports.stereo.rawValue
    guard let parsed = Ports(rawValue: ports) else {
      throw DecodingError.dataCorruptedError(
        forKey: .ports, in: c, debugDescription: "`\(ports)` is neither \"stereo\" nor \"mono\"")
    }
    stereo = parsed == .stereo
    connect = try c.value(.connect, or: [])
    connectPattern = try c.decodeIfPresent(String.self, forKey: .connectPattern)
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(stereo ? Ports.stereo : Ports.mono, forKey: .ports)
    try c.encode(connect, forKey: .connect)
    try c.encodeIfPresent(connectPattern, forKey: .connectPattern)
  }
}
