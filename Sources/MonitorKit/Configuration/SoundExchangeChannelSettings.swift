import Common
import Matcher

/// One channel's entry in `reports.soundExchange.channels`: the service it is reported under and its stream's
/// Icecast mount.
///
/// JSON: `{serviceName: "WXYZ-FM", icecastMount: "/wxyz"}`; both optional.
///
/// Threads: a value; any thread.
struct SoundExchangeChannelSettings: Codable, Sendable, Equatable {
  /// The service (call letters) the channel's plays are reported under. Default: `soundExchange.serviceName`.
  var serviceName: String?
  /// The mount whose listeners in `--icecast-log` are the channel's audience. Default: `/` and the channel's name.
  var icecastMount: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case serviceName
    case icecastMount
  }

  init(serviceName: String? = nil, icecastMount: String? = nil) {
    self.serviceName = serviceName
    self.icecastMount = icecastMount
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    serviceName = try c.decodeIfPresent(String.self, forKey: .serviceName)
    icecastMount = try c.decodeIfPresent(String.self, forKey: .icecastMount)
  }
}
