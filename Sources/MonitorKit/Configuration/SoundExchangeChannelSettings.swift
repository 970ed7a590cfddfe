import Common
import Matcher

/// One channel's entry in `reports.soundExchange.channels`: the service it is reported under, its stream's Icecast
/// mount, and the Icecast stats endpoint `run` samples its listeners from.
///
/// JSON: `{serviceName: "WXYZ-FM", icecastMount: "/wxyz", icecastStatsURL: "http://icecast:8000/status-json.xsl"}`;
/// all optional.
///
/// Threads: a value; any thread.
struct SoundExchangeChannelSettings: Codable, Sendable, Equatable {
  /// The service (call letters) the channel's plays are reported under. Default: `soundExchange.serviceName`.
  var serviceName: String?
  /// The mount whose listeners in `--icecast-log` are the channel's audience. Default: `/` and the channel's name.
  var icecastMount: String?
  /// Icecast's JSON stats endpoint (`http://HOST:PORT/status-json.xsl`), which `run` reads every
  /// `icecastStatsSeconds` for the listeners on `icecastMount`, into the play log. Default: none, not sampled.
  var icecastStatsURL: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case serviceName
    case icecastMount
    case icecastStatsURL
  }

  init(serviceName: String? = nil, icecastMount: String? = nil, icecastStatsURL: String? = nil) {
    self.serviceName = serviceName
    self.icecastMount = icecastMount
    self.icecastStatsURL = icecastStatsURL
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    serviceName = try c.decodeIfPresent(String.self, forKey: .serviceName)
    icecastMount = try c.decodeIfPresent(String.self, forKey: .icecastMount)
    icecastStatsURL = try c.decodeIfPresent(String.self, forKey: .icecastStatsURL)
  }
}
