import Common
import Matcher

/// The JACK client that captures the `jack` channels: the `jack` section of the configuration. Every key is
/// optional.
///
/// Threads: a value; any thread.
struct JackSettings: Codable, Sendable, Equatable {
  /// The client's name in JACK; ports appear as `broadcast-monitor:fm1_L`. Default `broadcast-monitor`.
  var clientName: String
  /// The JACK server to connect to (jackd `-n NAME`). Default nil: `$JACK_DEFAULT_SERVER`, else the default server.
  var serverName: String?
  /// Audio each channel's ring buffer holds between the JACK callback and its worker, in seconds. Default 10 s: a
  /// worker may fall this far behind before samples are dropped. At most `maxRingSeconds`.
  var ringSeconds: Double

  /// The longest ring, in seconds: a worker further behind than 5 minutes is not catching up, and a longer ring
  /// only holds memory (its pages are touched before capture starts: 115 MB per port at 96 kHz) and delays the
  /// overrun report.
  static let maxRingSeconds = 300.0

  /// JACK's limit on client names (`jack_client_name_size()` is 64 bytes with the terminating zero).
  static let maxClientNameBytes = 63

  enum CodingKeys: String, CodingKey, CaseIterable {
    case clientName
    case serverName
    case ringSeconds
  }

  init(clientName: String = "broadcast-monitor", serverName: String? = nil, ringSeconds: Double = 10) {
    self.clientName = clientName
    self.serverName = serverName
    self.ringSeconds = ringSeconds
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = JackSettings()
    clientName = try c.value(.clientName, or: defaults.clientName)
    serverName = try c.decodeIfPresent(String.self, forKey: .serverName)
    ringSeconds = try c.value(.ringSeconds, or: defaults.ringSeconds)
  }
}
