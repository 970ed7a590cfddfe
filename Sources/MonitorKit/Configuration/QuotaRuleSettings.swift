import Common
import Matcher
import Reports

/// One content quota of `reports.quotaRules`, as written in the configuration; `ReportSettings.quotaRules(origin:)`
/// (`ReportSettings+Validation.swift`) checks it and turns it into the `QuotaRule` the report applies.
///
/// JSON: `{name: "CRTC Canadian content", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2,
/// kinds: ["song"], targetPercent: 35, period: "week", weekStartsOn: "sun", channels: ["ckua"],
/// minimumPlayedFraction: 0.9, dayParts: [{name: "Mon-Fri 6-18", days: ["mon", "tue", "wed", "thu", "fri"],
/// startTime: "06:00", endTime: "18:00"}], subQuotas: [{…}]}`.
///
/// Threads: a value; any thread.
struct QuotaRuleSettings: Codable, Sendable, Equatable {
  /// The rule's name in the report. Required.
  var name: String
  /// The catalog metadata column (item attribute) that qualifies an item. Required.
  var attribute: String
  /// Values of the attribute that qualify (case-insensitive), such as `["fr"]`. Either these or `flags`.
  var qualifyingValues: [String] = []
  /// Flags the attribute lists, such as `["M", "A", "P", "L"]`. Either these or `qualifyingValues`.
  var flags: [String] = []
  /// How many of `flags` qualify an item. Default 1.
  var minimumFlags = 1
  /// The item kinds that count. Default `["song"]`.
  var kinds: [ItemKind] = [.song]
  /// The share of counted plays that must qualify, in percent (0…100). Required.
  var targetPercent: Double
  /// The period the share is measured over: `day`, `week` (Monday to Sunday) or `month`. Default `week`.
  var period = ReportGrouping.week
  /// The day weeks start on: `mon` … `sun`. Default `mon` (the CRTC's broadcast week starts on `sun`).
  var weekStartsOn = "mon"
  /// The parts of the week checked, each on its own. Default: one part, the whole week.
  var dayParts: [DayPartSettings] = [DayPartSettings(name: "whole week")]
  /// The channels the rule applies to. Default: all.
  var channels: [String]?
  /// The share of an item's catalog length a play needs to count as a selection, not a fragment (0…1). Default
  /// 0.9. Not with `minimumPlayedSeconds`.
  var minimumPlayedFraction: Double?
  /// The air time a play needs to count as a selection, in seconds. Default: none (`minimumPlayedFraction`).
  var minimumPlayedSeconds: Double?
  /// Shares required within the qualifying plays, each checked on its own. Default: none.
  var subQuotas: [QuotaSubQuotaSettings] = []

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name
    case attribute
    case qualifyingValues
    case flags
    case minimumFlags
    case kinds
    case targetPercent
    case period
    case weekStartsOn
    case dayParts
    case channels
    case minimumPlayedFraction
    case minimumPlayedSeconds
    case subQuotas
  }

  init(
    name: String, attribute: String, qualifyingValues: [String] = [], flags: [String] = [], minimumFlags: Int = 1,
    kinds: [ItemKind] = [.song], targetPercent: Double, period: ReportGrouping = .week, weekStartsOn: String = "mon",
    dayParts: [DayPartSettings] = [DayPartSettings(name: "whole week")], channels: [String]? = nil,
    minimumPlayedFraction: Double? = nil, minimumPlayedSeconds: Double? = nil,
    subQuotas: [QuotaSubQuotaSettings] = []
  ) {
    self.name = name
    self.attribute = attribute
    self.qualifyingValues = qualifyingValues
    self.flags = flags
    self.minimumFlags = minimumFlags
    self.kinds = kinds
    self.targetPercent = targetPercent
    self.period = period
    self.weekStartsOn = weekStartsOn
    self.dayParts = dayParts
    self.channels = channels
    self.minimumPlayedFraction = minimumPlayedFraction
    self.minimumPlayedSeconds = minimumPlayedSeconds
    self.subQuotas = subQuotas
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = QuotaRuleSettings(name: "", attribute: "", targetPercent: 0)
    name = try c.decode(String.self, forKey: .name)
    attribute = try c.decode(String.self, forKey: .attribute)
    qualifyingValues = try c.value(.qualifyingValues, or: defaults.qualifyingValues)
    flags = try c.value(.flags, or: defaults.flags)
    minimumFlags = try c.value(.minimumFlags, or: defaults.minimumFlags)
    kinds = try c.value(.kinds, or: defaults.kinds)
    targetPercent = try c.decode(Double.self, forKey: .targetPercent)
    period = try c.value(.period, or: defaults.period)
    weekStartsOn = try c.value(.weekStartsOn, or: defaults.weekStartsOn)
    dayParts = try c.value(.dayParts, or: defaults.dayParts)
    channels = try c.decodeIfPresent([String].self, forKey: .channels)
    minimumPlayedFraction = try c.decodeIfPresent(Double.self, forKey: .minimumPlayedFraction)
    minimumPlayedSeconds = try c.decodeIfPresent(Double.self, forKey: .minimumPlayedSeconds)
    subQuotas = try c.value(.subQuotas, or: defaults.subQuotas)
  }
}
