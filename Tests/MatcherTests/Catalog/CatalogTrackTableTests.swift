import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("Catalog track table")
struct CatalogTrackTableTests {
  /// Tracks with every kind, texts in several scripts and of every length class (empty, short, long), attributes, and
  /// the extremes of each number.
  static func tracks(seed: UInt64, count: Int) -> [CatalogTrack] {
    var random = SeededGenerator(seed: seed)
    let words = ["", "Armygeddon", "Ça plane pour moi", "東京", "🎵 jingle", String(repeating: "long title ", count: 40)]
    func word() -> String { words[Int(random.next() % UInt64(words.count))] }
    return (0..<count).map { i in
      var attributes: [String: String] = [:]
      for _ in 0..<Int(random.next() % 4) { attributes["column \(random.next() % 9) \(word())"] = word() }
      return CatalogTrack(
        key: String(format: "%016llx", random.next()), sourcePath: "/music/\(word())/\(i).ogg",
        metadata: TrackMetadata(
          title: word(), artist: word(), album: word(), isrc: i % 2 == 0 ? "" : "ZZBMF26\(i)", label: word(),
          kind: ItemKind.allCases[i % ItemKind.allCases.count], attributes: attributes),
        durationSeconds: Double(random.next() % 1_000_000) / 997, audibleStartSeconds: i == 0 ? 0 : 0.1,
        audibleEndSeconds: i == 0 ? .greatestFiniteMagnitude : 1.5, loudEndSeconds: i == 0 ? 0 : 1.25,
        globalStartFrame: i == 0 ? 0 : UInt32.max - UInt32(i), frameCount: UInt32(truncatingIfNeeded: random.next()),
        hashCount: i == 1 ? Int.max : Int(random.next() % 100_000),
        addedAt: Date(timeIntervalSinceReferenceDate: Double(random.next() % 1_000_000_000) / 1000))
    }
  }

  static func decode(
    _ bytes: [UInt8], count: Int, version: UInt32 = Catalog.formatVersion
  ) -> Result<[CatalogTrack], FormatError> {
    bytes.withUnsafeBytes { raw in
      Result { () throws(FormatError) in
        try CatalogTrackTable.decode(raw, count: count, version: version, path: "/c.bmcat")
      }
    }
  }

  /// The table of `tracks` as format version 4 wrote it: without each track's `loudEndSeconds`, which follows its
  /// three integers and three other times.
  static func versionFourTable(_ tracks: [CatalogTrack]) -> [UInt8] {
    tracks.flatMap { track in
      var bytes = CatalogTrackTable.encoded([track])
      bytes.removeSubrange(40..<48)
      return bytes
    }
  }

  @Test("Tracks round-trip through the table exactly, over seeds", arguments: [1, 2, 3, 4, 5] as [UInt64])
  func roundTrip(seed: UInt64) throws {
    let tracks = Self.tracks(seed: seed, count: 40)
    let bytes = CatalogTrackTable.encoded(tracks)
    #expect(try Self.decode(bytes, count: tracks.count).get() == tracks)
    #expect(CatalogTrackTable.encoded(try Self.decode(bytes, count: tracks.count).get()) == bytes)
  }

  @Test("A version 4 table, without loud ends, reads each track as loud to its audible end")
  func versionFour() throws {
    let tracks = Self.tracks(seed: 11, count: 12)
    let decoded = try Self.decode(Self.versionFourTable(tracks), count: tracks.count, version: 4).get()
    #expect(decoded.map(\.loudEndSeconds) == tracks.map(\.audibleEndSeconds))
    #expect(decoded.map(\.key) == tracks.map(\.key))
    #expect(decoded.map(\.metadata) == tracks.map(\.metadata))
    #expect(decoded.map(\.addedAt) == tracks.map(\.addedAt))
    // The same bytes read as this build's version (loud ends from version 5 on) run out of bytes.
    #expect(throws: FormatError.self) { try Self.decode(Self.versionFourTable(tracks), count: tracks.count).get() }
  }

  @Test("The same tracks always make the same bytes, whatever order their attributes were given in")
  func sameBytes() {
    var a = Self.tracks(seed: 9, count: 1)
    var b = a
    a[0].metadata.attributes = [:]
    b[0].metadata.attributes = [:]
    for name in ["mapl", "advertiser", "language", "Zone"] { a[0].metadata.attributes[name] = name }
    for name in ["Zone", "language", "advertiser", "mapl"] { b[0].metadata.attributes[name] = name }
    #expect(CatalogTrackTable.encoded(a) == CatalogTrackTable.encoded(b))
  }

  @Test("An empty table holds no track, and a track with every text empty takes the fewest bytes")
  func sizes() throws {
    #expect(CatalogTrackTable.encoded([]).isEmpty)
    #expect(try Self.decode([], count: 0).get().isEmpty)
    let track = CatalogTrack(
      key: "", sourcePath: "", metadata: TrackMetadata(title: ""), durationSeconds: 0, audibleStartSeconds: 0,
      audibleEndSeconds: 0, loudEndSeconds: 0, globalStartFrame: 0, frameCount: 0, hashCount: 0, addedAt: Date())
    let bytes = CatalogTrackTable.encoded([track])
    #expect(bytes.count == CatalogTrackTable.minimumTrackBytes(version: Catalog.formatVersion) + 4)  // "song"
    #expect(Self.versionFourTable([track]).count == CatalogTrackTable.minimumTrackBytes(version: 4) + 4)
  }

  /// The offset of `tracks[0]`'s kind text's length in its table: after the fixed fields and 7 texts.
  static func kindOffset(_ track: CatalogTrack) -> Int {
    let m = track.metadata
    let texts = [track.key, track.sourcePath, m.title, m.artist, m.album, m.isrc, m.label]
    return 56 + texts.reduce(0) { $0 + 4 + $1.utf8.count }
  }

  @Test("A table that does not hold its tracks exactly is refused as damaged, naming the track and what is wrong")
  func damage() throws {
    let tracks = Self.tracks(seed: 7, count: 3)
    let bytes = CatalogTrackTable.encoded(tracks)
    var unknownKind = CatalogTrackTable.encoded([tracks[0]])
    let kindAt = Self.kindOffset(tracks[0])
    unknownKind[kindAt + 4] = UInt8(ascii: "x")
    var notUTF8 = CatalogTrackTable.encoded([tracks[0]])
    notUTF8[56 + 4] = 0xFF  // the first byte of the key
    var notANumber = CatalogTrackTable.encoded([tracks[0]])
    withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { notANumber.replaceSubrange(16..<24, with: $0) }
    var infiniteLoudEnd = CatalogTrackTable.encoded([tracks[0]])
    withUnsafeBytes(of: Double.infinity.bitPattern.littleEndian) { infiniteLoudEnd.replaceSubrange(40..<48, with: $0) }
    var repeatedName = tracks[0]
    repeatedName.metadata.attributes = ["a": "1", "b": "2"]
    var twice = CatalogTrackTable.encoded([repeatedName])
    twice[twice.count - 6] = UInt8(ascii: "a")  // the table ends with "b" and "2", each after its 4-byte length
    var hugeText = CatalogTrackTable.encoded([tracks[0]])
    hugeText.replaceSubrange(56..<60, with: [0xFF, 0xFF, 0xFF, 0x7F])
    let cases: [([UInt8], Int, String)] = [
      (Array(bytes.dropLast()), 3, "track 3 of 3 in the track table runs past the table's end"),
      (bytes, 4, "track 4 of 4 in the track table runs past the table's end"),
      (bytes, 2, "bytes in the track table after its 2 tracks"),
      (Array(bytes.prefix(20)), 1, "track 1 of 1 in the track table runs past"),
      (hugeText, 1, "track 1 of 1 in the track table runs past"),
      (unknownKind, 1, "is of kind"),
      (notUTF8, 1, "has a text that is not UTF-8"),
      (notANumber, 1, "has nan seconds for its duration"),
      (infiniteLoudEnd, 1, "has inf seconds for where its loud part ends"),
      (twice, 1, "names an attribute twice"),
    ]
    for (table, count, what) in cases {
      let result = Self.decode(table, count: count)
      guard case .failure(let error) = result else {
        Issue.record("\(what): loaded")
        continue
      }
      #expect(error.reason.contains("damaged catalog"), "\(what): \(error)")
      #expect(error.reason.contains(what), "\(what): \(error)")
      #expect(error.path == "/c.bmcat")
    }
  }

  @Test("A catalog file whose header misstates its track table is refused as damaged, never read past its end")
  func misstatedTable() throws {
    let catalog = try MatcherHarness.catalog(of: CatalogValidationTests.songs)
    let count = catalog.tracks.count
    let bytes = CatalogTrackTable.encoded(catalog.tracks).count
    let fileBytes = try catalog.encoded().count
    let cases: [(Int, Int, String)] = [
      (count + 1, bytes, "track \(count + 1) of \(count + 1) in the track table runs past"),
      (count - 1, bytes, "bytes in the track table after its \(count - 1) tracks"),
      (count, bytes - 1, "runs past the table's end"),
      (count, fileBytes, "does not fit the file's"),
      (count, -1, "does not fit the file's"),
      (-1, bytes, "does not fit the file's"),
      (bytes, bytes, "does not fit the file's"),
    ]
    for (tracks, tableBytes, what) in cases {
      let file = try CatalogValidationTests.current(catalog) {
        $0["trackTable"] = ["count": tracks, "bytes": tableBytes]
      }
      try CatalogValidationTests.expectRefused(file, what, "\(tracks) tracks in \(tableBytes) bytes")
    }
  }
}
