/// A content quota, as data: which plays count, which of them qualify, over which parts of the week, and the share
/// they must reach. Canada's CRTC rule (at least 35 % of popular-music selections Canadian, MAPL: at least two of
/// music, artist, performance, lyrics, over the broadcast week and Monday to Friday 6:00 to 18:00) and France's
/// 40 % of songs in French are two such rules (config/monitor.example.json5 has both).
///
/// An item's qualification comes from one attribute of the catalog metadata (a column of `catalog add --metadata`,
/// its name compared without regard to case), in one of two ways:
/// - `qualifyingValues`: the attribute equals one of them (case-insensitive), e.g. `language` is `fr`;
/// - `minimumFlags` of `flags`: the attribute lists at least that many of the flags, e.g. `mapl` is `MAPL`, `M,A`
///   or `A P` (single-letter flags may be run together).
///
/// A value type: safe to pass between threads.
package struct QuotaRule: Sendable, Equatable {
  package var name: String
  /// The item attribute that qualifies an item.
  package var attribute: String
  /// Values of the attribute that qualify an item, lower-cased; empty when `flags` decide.
  package var qualifyingValues: [String]
  /// The flags the attribute may list, upper-cased; empty when `qualifyingValues` decide.
  package var flags: [String]
  /// How many of `flags` an item needs.
  package var minimumFlags: Int
  /// The item kinds that count (`song`); the others are left out of both numbers.
  package var kinds: Set<String>
  /// The share of counted plays that must qualify, in percent.
  package var targetPercent: Double
  /// The period the share is measured over (default: week, Monday to Sunday).
  package var period: ReportGrouping
  /// The parts of the week checked, each on its own.
  package var dayParts: [DayPart]

  package init(
    name: String, attribute: String, qualifyingValues: [String] = [], flags: [String] = [], minimumFlags: Int = 1,
    kinds: Set<String> = ["song"], targetPercent: Double, period: ReportGrouping = .week,
    dayParts: [DayPart] = [DayPart(name: "whole week")]
  ) {
    self.name = name
    self.attribute = attribute
    self.qualifyingValues = qualifyingValues.map { $0.lowercased() }
    self.flags = flags.map { $0.uppercased() }
    self.minimumFlags = minimumFlags
    self.kinds = kinds
    self.targetPercent = targetPercent
    self.period = period
    self.dayParts = dayParts
  }

  /// True when plays of `item` count towards the quota at all.
  package func counts(_ item: CatalogItem) -> Bool {
    kinds.contains(item.kind)
  }

  /// True when `item` qualifies.
  package func qualifies(_ item: CatalogItem) -> Bool {
    guard let value = item.attribute(attribute), !value.isEmpty else { return false }
    if !qualifyingValues.isEmpty {
      return qualifyingValues.contains(value.lowercased())
    }
    let tokens = value.uppercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    var found: Set<String> = []
    let singleLetters = flags.allSatisfy { $0.count == 1 }
    for token in tokens {
      if flags.contains(token) {
        found.insert(token)
      } else if singleLetters {
        for character in token where flags.contains(String(character)) { found.insert(String(character)) }
      }
    }
    return found.count >= minimumFlags
  }

  /// True when `qualifying` of `total` plays meet the target.
  package func isMet(qualifying: Int, total: Int) -> Bool {
    Double(qualifying) * 100 >= targetPercent * Double(total)
  }
}
