/// Descriptive metadata of one catalog item (a song, ad or jingle), as given by a metadata CSV, by tags, or by the
/// file name: what the catalog keeps for each track, and what the play log keeps with each play and in its mirror of
/// the catalog.
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

  /// The value of attribute `name`, its name compared without regard to case (`MAPL`, `mapl` and `Mapl` are the
  /// same column of a metadata sheet), surrounding spaces trimmed; nil when the item does not have it.
  public func attribute(_ name: String) -> String? {
    if let value = attributes[name] { return value.trimmed }
    let lowered = name.lowercased()
    return attributes.first { $0.key.lowercased() == lowered }?.value.trimmed
  }
}

extension String {
  fileprivate var trimmed: String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }
}
