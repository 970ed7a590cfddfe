import Common

/// Descriptive metadata of one catalog item, as given by a metadata CSV, by tags, or by the file name.
///
/// A value type: safe to share between threads.
public struct TrackMetadata: Codable, Sendable, Equatable, Hashable {
  public var title: String
  public var artist: String
  public var album: String
  /// International Standard Recording Code, upper-case, or "" when unknown.
  public var isrc: String
  public var label: String
  public var kind: ItemKind
  /// Any other columns of the metadata CSV (advertiser, MAPL flags, language …), kept verbatim.
  public var attributes: [String: String]

  public init(
    title: String, artist: String = "", album: String = "", isrc: String = "", label: String = "",
    kind: ItemKind = .song, attributes: [String: String] = [:]
  ) {
    self.title = title
    self.artist = artist
    self.album = album
    self.isrc = isrc
    self.label = label
    self.kind = kind
    self.attributes = attributes
  }
}
