import Common
import Matcher

/// The SoundExchange Report of Use settings (`reports.soundExchange`): who files it, under which service each
/// channel is reported, and the audience figure.
///
/// Threads: a value; any thread.
struct SoundExchangeSettings: Codable, Sendable, Equatable {
  /// The name of the service as licensed (37 CFR 370.4: "name of service"). Required.
  var serviceName: String
  /// SoundExchange's transmission category code for the service (`SoundExchangeReport.transmissionCategories`,
  /// such as `B`; a lower-case letter is taken in upper case). Required.
  var transmissionCategory: String
  /// The average number of listeners who receive one play, for "actual total performances" (plays × this figure).
  /// Default: none; the report then gives the play frequency instead.
  var listenersPerPlay: Double?
  /// Per channel: the service it is reported under (one report per service) and its Icecast mount. Default: every
  /// channel under `serviceName`, mount `/` and its name.
  var channels: [String: SoundExchangeChannelSettings] = [:]
  /// How often `run` samples the listeners of the channels with an `icecastStatsURL`, in seconds (1 to
  /// `ListenerSamples.longestIntervalSeconds`). Default 15.
  var icecastStatsSeconds: Double = 15

  enum CodingKeys: String, CodingKey, CaseIterable {
    case serviceName
    case transmissionCategory
    case listenersPerPlay
    case channels
    case icecastStatsSeconds
  }

  init(
    serviceName: String, transmissionCategory: String, listenersPerPlay: Double? = nil,
    channels: [String: SoundExchangeChannelSettings] = [:]
  ) {
    self.serviceName = serviceName
    self.transmissionCategory = transmissionCategory
    self.listenersPerPlay = listenersPerPlay
    self.channels = channels
  }

  /// The service `channel` is reported under.
  func serviceName(of channel: String) -> String {
    channels[channel]?.serviceName ?? serviceName
  }

  /// The Icecast mount of `channel`'s stream.
  func icecastMount(of channel: String) -> String {
    channels[channel]?.icecastMount ?? "/" + channel
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    serviceName = try c.decode(String.self, forKey: .serviceName)
    transmissionCategory = try c.decode(String.self, forKey: .transmissionCategory).uppercased()
    listenersPerPlay = try c.decodeIfPresent(Double.self, forKey: .listenersPerPlay)
    channels = try c.value(.channels, or: [:])
    icecastStatsSeconds = try c.value(.icecastStatsSeconds, or: 15)
  }
}
