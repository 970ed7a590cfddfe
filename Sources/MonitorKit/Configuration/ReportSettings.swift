import Common
import Matcher

/// The settings of `broadcast-monitor report`: the `reports` section of the configuration. Every key is optional;
/// a report that needs a missing one says so.
///
/// JSON: `{soundExchange: {serviceName: "…", transmissionCategory: "B", listenersPerPlay: 1200},
/// proofOfPlay: {kind: "ad", advertiserAttribute: "advertiser"}, quotaRules: [{…}]}`.
///
/// Threads: a value; any thread.
struct ReportSettings: Codable, Sendable, Equatable {
  /// The SoundExchange Report of Use. Default: none (the `soundexchange` report then asks for it).
  var soundExchange: SoundExchangeSettings?
  /// The proof-of-play report. Default: ads, advertiser from the `advertiser` attribute.
  var proofOfPlay = ProofOfPlaySettings()
  /// The content quotas the `quota` report checks. Default: none.
  var quotaRules: [QuotaRuleSettings] = []

  enum CodingKeys: String, CodingKey, CaseIterable {
    case soundExchange
    case proofOfPlay
    case quotaRules
  }

  init(
    soundExchange: SoundExchangeSettings? = nil, proofOfPlay: ProofOfPlaySettings = ProofOfPlaySettings(),
    quotaRules: [QuotaRuleSettings] = []
  ) {
    self.soundExchange = soundExchange
    self.proofOfPlay = proofOfPlay
    self.quotaRules = quotaRules
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    soundExchange = try c.decodeIfPresent(SoundExchangeSettings.self, forKey: .soundExchange)
    proofOfPlay = try c.value(.proofOfPlay, or: ProofOfPlaySettings())
    quotaRules = try c.value(.quotaRules, or: [])
  }
}
