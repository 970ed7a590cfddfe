/// What qualifies an item for a quota or a sub-quota: one attribute of the catalog metadata (a column of
/// `catalog add --metadata`, its name compared without regard to case), in one of two ways:
/// - `qualifyingValues`: the attribute equals one of them (case-insensitive), e.g. `language` is `fr`;
/// - `minimumFlags` of `flags`: the attribute lists at least that many of the flags, e.g. `mapl` is `MAPL`, `M,A`
///   or `A P` (single-letter flags may be run together).
///
/// A value type: safe to pass between threads.
package struct QuotaCriterion: Sendable, Equatable {
  /// The item attribute that qualifies an item.
  package var attribute: String
  /// Values of the attribute that qualify an item, lower-cased; empty when `flags` decide.
  package var qualifyingValues: [String]
  /// The flags the attribute may list, upper-cased; empty when `qualifyingValues` decide.
  package var flags: [String]
  /// How many of `flags` an item needs.
  package var minimumFlags: Int

  package init(attribute: String, qualifyingValues: [String] = [], flags: [String] = [], minimumFlags: Int = 1) {
    self.attribute = attribute
    self.qualifyingValues = qualifyingValues.map { $0.lowercased() }
    self.flags = flags.map { $0.uppercased() }
    self.minimumFlags = minimumFlags
  }

  /// True when `item` qualifies.
  package func qualifies(_ item: CatalogItem) -> Bool {
    guard let value = item.metadata.attribute(attribute), !value.isEmpty else { return false }
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
}
