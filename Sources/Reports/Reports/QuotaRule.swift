import Common

/// A content quota, as data: which plays count, which of them qualify, on which channels, over which parts of the
/// week, and the share they must reach. Canada's CRTC rule (at least 35 % of popular-music selections Canadian,
/// MAPL: at least two of music, artist, performance, lyrics, over the broadcast week from Sunday and Monday to
/// Friday 6:00 to 18:00) and France's 40 % of songs in French, half of them new productions or new talent, are two
/// such rules (config/monitor.example.json5 has both; the README names their sources).
///
/// An item qualifies by its ``QuotaCriterion``. A play counts only when it aired long enough to be a musical
/// selection rather than a fragment (regulators count selections; the CRTC's French-vocal rule counts those
/// "broadcast in their entirety"): at least `minimumPlayedSeconds` when given, else `minimumPlayedFraction` of the
/// item's catalog length (a play of an item whose length is unknown counts). Fragments are left out of both numbers
/// and counted apart.
///
/// A value type: safe to pass between threads.
package struct QuotaRule: Sendable, Equatable {
  /// The share of an item's length a play needs by default to count as a selection, not a fragment.
  package static let defaultMinimumPlayedFraction = 0.9

  package var name: String
  /// What qualifies an item.
  package var criterion: QuotaCriterion
  /// The item kinds that count (`song`); the others are left out of both numbers.
  package var kinds: Set<ItemKind>
  /// The share of counted plays that must qualify, in percent.
  package var targetPercent: Double
  /// The period the share is measured over (default: week).
  package var period: ReportGrouping
  /// The day weeks start on, 0 for Monday … 6 for Sunday (the CRTC's broadcast week starts on Sunday).
  package var weekStartsOn: Int
  /// The parts of the week checked, each on its own.
  package var dayParts: [DayPart]
  /// The channels the rule applies to; nil for all.
  package var channels: Set<String>?
  /// The share of the item's length a play needs to count, 0…1; used when `minimumPlayedSeconds` is nil.
  package var minimumPlayedFraction: Double
  /// The air time a play needs to count, in seconds; nil to use `minimumPlayedFraction`.
  package var minimumPlayedSeconds: Double?
  /// Shares required within the qualifying plays, each checked on its own.
  package var subQuotas: [QuotaSubQuota]

  package init(
    name: String, attribute: String, qualifyingValues: [String] = [], flags: [String] = [], minimumFlags: Int = 1,
    kinds: Set<ItemKind> = [.song], targetPercent: Double, period: ReportGrouping = .week, weekStartsOn: Int = 0,
    dayParts: [DayPart] = [DayPart(name: "whole week")], channels: Set<String>? = nil,
    minimumPlayedFraction: Double = QuotaRule.defaultMinimumPlayedFraction, minimumPlayedSeconds: Double? = nil,
    subQuotas: [QuotaSubQuota] = []
  ) {
    self.name = name
    criterion = QuotaCriterion(
      attribute: attribute, qualifyingValues: qualifyingValues, flags: flags, minimumFlags: minimumFlags)
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

  /// True when plays of `item` count towards the quota at all (before the fragment check).
  package func counts(_ item: CatalogItem) -> Bool {
    kinds.contains(item.metadata.kind)
  }

  /// True when the rule applies to `channel`.
  package func applies(to channel: String) -> Bool {
    channels?.contains(channel) ?? true
  }

  /// The air time, in milliseconds, a play of `item` needs to count rather than be a fragment.
  package func minimumPlayedMilliseconds(of item: CatalogItem) -> Int64 {
    if let minimumPlayedSeconds { return Int64((minimumPlayedSeconds * 1000).rounded(.up)) }
    guard let length = item.durationMilliseconds else { return 0 }
    return Int64((Double(length) * minimumPlayedFraction).rounded(.up))
  }

  /// True when `item` qualifies.
  package func qualifies(_ item: CatalogItem) -> Bool {
    criterion.qualifies(item)
  }

  /// True when `qualifying` of `total` plays meet the target.
  package func isMet(qualifying: Int, total: Int) -> Bool {
    Double(qualifying) * 100 >= targetPercent * Double(total)
  }
}
