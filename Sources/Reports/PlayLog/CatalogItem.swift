import Common

/// One item of the play log's mirror of the catalog (`catalog_items`): what a report prints about a song, ad or
/// jingle, without the catalog file.
///
/// A value type: safe to pass between threads.
package struct CatalogItem: Sendable, Equatable {
  /// The play log's row id.
  package var id: Int64
  /// The catalog's stable key for the item.
  package var key: String
  /// The item's title, artist, kind and other metadata, as the catalog had them when it last aired.
  package var metadata: TrackMetadata
  /// The item's length in the catalog, in milliseconds, if known.
  package var durationMilliseconds: Int64?

  package init(id: Int64, key: String, metadata: TrackMetadata, durationMilliseconds: Int64? = nil) {
    self.id = id
    self.key = key
    self.metadata = metadata
    self.durationMilliseconds = durationMilliseconds
  }

  /// An item whose metadata is made of the fields given.
  package init(
    id: Int64, key: String, title: String, artist: String = "", album: String = "", isrc: String = "",
    label: String = "", kind: ItemKind = .song, attributes: [String: String] = [:],
    durationMilliseconds: Int64? = nil
  ) {
    self.init(
      id: id, key: key,
      metadata: TrackMetadata(
        title: title, artist: artist, album: album, isrc: isrc, label: label, kind: kind, attributes: attributes),
      durationMilliseconds: durationMilliseconds)
  }
}
