/// One item of the play log's mirror of the catalog (`catalog_items`): what a report prints about a song, ad or
/// jingle, without the catalog file.
///
/// A value type: safe to pass between threads.
package struct CatalogItem: Sendable, Equatable {
  /// The play log's row id.
  package var id: Int64
  /// The catalog's stable key for the item.
  package var key: String
  package var title: String
  package var artist: String
  package var album: String
  package var isrc: String
  package var label: String
  /// "song", "ad", "jingle" or "other".
  package var kind: String
  /// The other metadata columns of the catalog (`mapl`, `language`, `advertiser` …), as written there.
  package var attributes: [String: String]
  /// The item's length in the catalog, in milliseconds, if known.
  package var durationMilliseconds: Int64?

  package init(
    id: Int64, key: String, title: String, artist: String = "", album: String = "", isrc: String = "",
    label: String = "", kind: String = "song", attributes: [String: String] = [:], durationMilliseconds: Int64? = nil
  ) {
    self.id = id
    self.key = key
    self.title = title
    self.artist = artist
    self.album = album
    self.isrc = isrc
    self.label = label
    self.kind = kind
    self.attributes = attributes
    self.durationMilliseconds = durationMilliseconds
  }

  /// The value of attribute `name`, its name compared without regard to case (`MAPL`, `mapl` and `Mapl` are the
  /// same column of a metadata sheet), surrounding spaces trimmed; nil when the item does not have it.
  package func attribute(_ name: String) -> String? {
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
