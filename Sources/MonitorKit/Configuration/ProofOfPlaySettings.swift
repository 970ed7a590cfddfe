import Common
import Matcher

/// The proof-of-play settings (`reports.proofOfPlay`). Every key is optional.
///
/// Threads: a value; any thread.
struct ProofOfPlaySettings: Codable, Sendable, Equatable {
  /// The item kind listed (`--kind` replaces it). Default `ad`.
  var kind: ItemKind
  /// The catalog metadata column that names an item's advertiser (compared without regard to case).
  /// Default `advertiser`.
  var advertiserAttribute: String

  enum CodingKeys: String, CodingKey, CaseIterable {
    case kind
    case advertiserAttribute
  }

  init(kind: ItemKind = .ad, advertiserAttribute: String = "advertiser") {
    self.kind = kind
    self.advertiserAttribute = advertiserAttribute
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = ProofOfPlaySettings()
    kind = try c.value(.kind, or: defaults.kind)
    advertiserAttribute = try c.value(.advertiserAttribute, or: defaults.advertiserAttribute)
  }
}
