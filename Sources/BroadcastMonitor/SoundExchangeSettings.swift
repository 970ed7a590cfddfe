import Matcher

/// The SoundExchange Report of Use settings (`reports.soundExchange`): who files it and the audience figure.
///
/// Threads: a value; any thread.
struct SoundExchangeSettings: Codable, Sendable, Equatable {
  /// The name of the service as licensed (37 CFR 370.4: "name of service"). Required.
  var serviceName: String
  /// SoundExchange's transmission category code for the service (a letter such as `B`). Required.
  var transmissionCategory: String
  /// The average number of listeners who receive one play, for "actual total performances" (plays × this figure).
  /// Default: none; the report then gives the play frequency instead.
  var listenersPerPlay: Double?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case serviceName
    case transmissionCategory
    case listenersPerPlay
  }

  init(serviceName: String, transmissionCategory: String, listenersPerPlay: Double? = nil) {
    self.serviceName = serviceName
    self.transmissionCategory = transmissionCategory
    self.listenersPerPlay = listenersPerPlay
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    serviceName = try c.decode(String.self, forKey: .serviceName)
    transmissionCategory = try c.decode(String.self, forKey: .transmissionCategory)
    listenersPerPlay = try c.decodeIfPresent(Double.self, forKey: .listenersPerPlay)
  }
}
