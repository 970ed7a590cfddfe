import Foundation

/// What a catalog item is: reports filter on it (airplay counts songs, proof-of-play counts ads).
public enum ItemKind: String, Codable, Sendable, CaseIterable {
  case song
  case ad
  case jingle
  case other

  public init(from decoder: any Decoder) throws { self = try decoder.word(of: Self.self) }

  /// Parses a metadata value leniently ("Song", "advert", "" …): empty is `.song`; a word that is not one of
  /// `acceptedWords` is nil, so that a typo is not filed as `.other` without a word.
  public init?(lenient text: String) {
    let word = text.trimmingCharacters(in: .whitespaces).lowercased()
    switch word {
    case "", "song", "music", "track": self = .song
    case "ad", "ads", "advert", "advertisement", "commercial", "spot": self = .ad
    case "jingle", "ident", "sweeper", "stinger": self = .jingle
    case "other": self = .other
    default: return nil
    }
  }

  /// The words `init(lenient:)` reads (in any case), for error messages.
  public static let acceptedWords = [
    "song", "music", "track", "ad", "ads", "advert", "advertisement", "commercial", "spot", "jingle", "ident",
    "sweeper", "stinger", "other",
  ]
}
