import Common
import Matcher
import Reports

/// One sub-quota of a quota rule (`reports.quotaRules[i].subQuotas[j]`): a share required within the rule's
/// qualifying plays, qualified like the rule by one attribute.
///
/// JSON: `{name: "new productions or new talent", attribute: "novelty", qualifyingValues: ["new production",
/// "new talent"], targetPercent: 50}`.
///
/// Threads: a value; any thread.
struct QuotaSubQuotaSettings: Codable, Sendable, Equatable {
  /// Its name in the report, after the rule's. Required.
  var name: String
  /// The catalog metadata column that qualifies an item. Required.
  var attribute: String
  /// Values of the attribute that qualify (case-insensitive). Either these or `flags`.
  var qualifyingValues: [String] = []
  /// Flags the attribute lists. Either these or `qualifyingValues`.
  var flags: [String] = []
  /// How many of `flags` qualify an item. Default 1.
  var minimumFlags = 1
  /// The share of the rule's qualifying plays that must also qualify here, in percent (0…100). Required.
  var targetPercent: Double

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name
    case attribute
    case qualifyingValues
    case flags
    case minimumFlags
    case targetPercent
  }

  init(
    name: String, attribute: String, qualifyingValues: [String] = [], flags: [String] = [], minimumFlags: Int = 1,
    targetPercent: Double
  ) {
    self.name = name
    self.attribute = attribute
    self.qualifyingValues = qualifyingValues
    self.flags = flags
    self.minimumFlags = minimumFlags
    self.targetPercent = targetPercent
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    attribute = try c.decode(String.self, forKey: .attribute)
    qualifyingValues = try c.value(.qualifyingValues, or: [])
    flags = try c.value(.flags, or: [])
    minimumFlags = try c.value(.minimumFlags, or: 1)
    targetPercent = try c.decode(Double.self, forKey: .targetPercent)
  }
}
