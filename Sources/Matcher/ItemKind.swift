import Foundation

/// What a catalog item is: reports filter on it (airplay counts songs, proof-of-play counts ads).
public enum ItemKind: String, Codable, Sendable, CaseIterable {
  case song
  case ad
  case jingle
  case other

  /// Parses a metadata value leniently ("Song", "advert", "" …); unknown words are `.other`, empty is `.song`.
  public init(lenient text: String) {
    let word = text.trimmingCharacters(in: .whitespaces).lowercased()
    switch word {
    case "", "song", "music", "track": self = .song
    case "ad", "ads", "advert", "advertisement", "commercial", "spot": self = .ad
    case "jingle", "ident", "sweeper", "stinger": self = .jingle
    default: self = .other
    }
  }
}
