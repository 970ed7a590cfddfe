import Common
import Foundation

/// A catalog file's tracks (format version 4 on), in binary after its JSON header: read without a JSON decoder, so
/// that loading a catalog of 17,646 tracks (1,000 hours) takes milliseconds where decoding them from JSON took a
/// quarter of a second, 6 % of a one-hour `scan`. Little-endian; for each track, in catalog order:
///
///     UInt32 globalStartFrame   UInt32 frameCount   Int64 hashCount
///     Float64 durationSeconds   Float64 audibleStartSeconds   Float64 audibleEndSeconds
///     Float64 loudEndSeconds (from format version 5; version 4 tracks are loud to their audible end)
///     Float64 addedAt (seconds since 2001-01-01 00:00:00 UTC)
///     key   sourcePath   title   artist   album   isrc   label   kind
///     UInt32 attribute count, then each attribute's name and value, names in ascending order
///
/// where each text is a UInt32 count of bytes and that many bytes of UTF-8, and `kind` is an `ItemKind`'s raw value.
/// The header holds the number of tracks and the table's length (`Catalog.TrackTableGeometry`).
enum CatalogTrackTable {
  /// The bytes of a track with every text empty and no attribute, in a table of format `version`: its fixed-width
  /// fields, 8 text lengths and the attribute count.
  static func minimumTrackBytes(version: UInt32) -> Int { 4 + 4 + 8 + (version >= 5 ? 5 : 4) * 8 + 8 * 4 + 4 }

  /// The most tracks `decode` makes room for before it reads them (a 1,000 h catalog has 17,646).
  static let reservedTracks = 1 << 16

  /// The table of `tracks`, in the current format (`Catalog.formatVersion`). Attributes are written in the order of
  /// their names, so that the same catalog is always the same bytes.
  static func encoded(_ tracks: [CatalogTrack]) -> [UInt8] {
    var out = BinaryWriter()
    func append(_ text: String) {
      let utf8 = text.utf8
      out.append(UInt32(utf8.count))
      out.append(bytes: utf8)
    }
    for t in tracks {
      out.append(t.globalStartFrame)
      out.append(t.frameCount)
      out.append(Int64(t.hashCount))
      for seconds in [
        t.durationSeconds, t.audibleStartSeconds, t.audibleEndSeconds, t.loudEndSeconds,
        t.addedAt.timeIntervalSinceReferenceDate,
      ] {
        out.append(seconds.bitPattern)
      }
      let m = t.metadata
      for text in [t.key, t.sourcePath, m.title, m.artist, m.album, m.isrc, m.label, m.kind.rawValue] { append(text) }
      out.append(UInt32(m.attributes.count))
      for (name, value) in m.attributes.sorted(by: { $0.key < $1.key }) {
        append(name)
        append(value)
      }
    }
    return out.bytes
  }

  /// Reads `count` tracks of a table of format `version` from `raw`, which must hold them exactly. A table that runs
  /// short or long, a text that is not UTF-8, an unknown kind or a time that is not a number is a damaged catalog
  /// (`Catalog.damaged`); the values are checked against each other afterwards, with the rest of the header
  /// (`Catalog+Validation`).
  static func decode(
    _ raw: UnsafeRawBufferPointer, count: Int, version: UInt32, path: String
  ) throws(FormatError) -> [CatalogTrack] {
    var reader = Reader(raw: raw, path: path, trackCount: count)
    var tracks: [CatalogTrack] = []
    // Room made ahead for at most `reservedTracks`: the count is not checksummed yet when the table is read.
    tracks.reserveCapacity(min(count, reservedTracks))
    for i in 0..<count {
      reader.track = i
      let globalStartFrame = try reader.integer(UInt32.self)
      let frameCount = try reader.integer(UInt32.self)
      let hashCount = try reader.integer(Int64.self)
      let durationSeconds = try reader.seconds("its duration")
      let audibleStartSeconds = try reader.seconds("where its sound starts")
      let audibleEndSeconds = try reader.seconds("where its sound ends")
      let loudEndSeconds = version >= 5 ? try reader.seconds("where its loud part ends") : audibleEndSeconds
      let addedAt = try reader.seconds("when it was added")
      let key = try reader.text()
      let sourcePath = try reader.text()
      let title = try reader.text()
      let artist = try reader.text()
      let album = try reader.text()
      let isrc = try reader.text()
      let label = try reader.text()
      let kindName = try reader.text()
      guard let kind = ItemKind(rawValue: kindName) else {
        throw Catalog.damaged(path, "\(reader.trackName) is of kind \"\(kindName)\", which this build does not know")
      }
      let attributeCount = Int(try reader.integer(UInt32.self))
      guard attributeCount <= reader.bytesLeft / 8 else { throw reader.runsPastTheEnd() }
      var attributes: [String: String] = [:]
      attributes.reserveCapacity(attributeCount)
      for _ in 0..<attributeCount {
        let name = try reader.text()
        attributes[name] = try reader.text()
      }
      guard attributes.count == attributeCount else {
        throw Catalog.damaged(path, "\(reader.trackName) names an attribute twice")
      }
      tracks.append(
        CatalogTrack(
          key: key, sourcePath: sourcePath,
          metadata: TrackMetadata(
            title: title, artist: artist, album: album, isrc: isrc, label: label, kind: kind, attributes: attributes),
          durationSeconds: durationSeconds, audibleStartSeconds: audibleStartSeconds,
          audibleEndSeconds: audibleEndSeconds, loudEndSeconds: loudEndSeconds, globalStartFrame: globalStartFrame,
          frameCount: frameCount, hashCount: Int(hashCount), addedAt: Date(timeIntervalSinceReferenceDate: addedAt)))
    }
    guard reader.bytesLeft == 0 else {
      throw Catalog.damaged(path, "\(reader.bytesLeft) bytes in the track table after its \(count) tracks")
    }
    return tracks
  }

  /// A cursor over the table that names the track it is in when the bytes do not hold it. Not `BinaryReader`, which
  /// reads a `Data`, copies each text out before decoding it (5 ms more at 1,000 hours) and reports any shortfall as
  /// a truncated file: this one reads the mapped file in place.
  private struct Reader {
    let raw: UnsafeRawBufferPointer
    let path: String
    let trackCount: Int
    var offset = 0
    var track = 0

    init(raw: UnsafeRawBufferPointer, path: String, trackCount: Int) {
      self.raw = raw
      self.path = path
      self.trackCount = trackCount
    }

    var bytesLeft: Int { raw.count - offset }
    var trackName: String { "track \(track + 1) of \(trackCount) in the track table" }

    func runsPastTheEnd() -> FormatError {
      Catalog.damaged(path, "\(trackName) runs past the table's end (\(raw.count) bytes)")
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(FormatError) -> T {
      guard bytesLeft >= MemoryLayout<T>.size else { throw runsPastTheEnd() }
      defer { offset += MemoryLayout<T>.size }
      return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func seconds(_ what: String) throws(FormatError) -> Double {
      let value = Double(bitPattern: try integer(UInt64.self))
      guard value.isFinite else { throw Catalog.damaged(path, "\(trackName) has \(value) seconds for \(what)") }
      return value
    }

    mutating func text() throws(FormatError) -> String {
      let count = Int(try integer(UInt32.self))
      guard count <= bytesLeft else { throw runsPastTheEnd() }
      defer { offset += count }
      guard let text = String(validating: raw[offset..<(offset + count)], as: UTF8.self) else {
        throw Catalog.damaged(path, "\(trackName) has a text that is not UTF-8")
      }
      return text
    }
  }
}
