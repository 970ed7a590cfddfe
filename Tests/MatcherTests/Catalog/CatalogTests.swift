import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("Catalog and its file")
struct CatalogTests {
  static let songs = (31...33).map { SyntheticSong(seed: UInt64($0), seconds: 10) }

  static func catalog() throws -> Catalog { try MatcherHarness.catalog(of: songs) }

  /// Entries of an index as sortable pairs.
  static func entries(_ catalog: Catalog) -> [[UInt32]] {
    catalog.index.entries().map { [$0.hash, $0.position] }.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
  }

  /// Offsets of the parts of a catalog file: header (JSON), track table, directory, postings, trailer (checksum).
  struct Layout {
    var header: Range<Int>
    var trackTable: Range<Int>
    var directory: Range<Int>
    var postings: Range<Int>
    var triplets: Range<Int>
    var trailer: Range<Int>

    init(_ bytes: [UInt8], catalog: Catalog) {
      let headerLength = bytes[12..<16].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
      header = 16..<(16 + headerLength)
      let tableStart = (header.upperBound + 15) / 16 * 16
      trackTable = tableStart..<(tableStart + CatalogTrackTable.encoded(catalog.tracks).count)
      let directoryStart = (trackTable.upperBound + 15) / 16 * 16
      directory = directoryStart..<(directoryStart + catalog.index.directory.bytes)
      postings = directory.upperBound..<(directory.upperBound + 4 * catalog.index.postings.count)
      let tripletBytes = catalog.triplets.map { $0.bytes } ?? 0
      triplets = postings.upperBound..<(postings.upperBound + tripletBytes)
      trailer = triplets.upperBound..<bytes.count
    }
  }

  /// `bytes` with the checksum of its format version (bytes 8–11) in its last 8 bytes.
  static func resealed(_ bytes: [UInt8]) -> [UInt8] {
    var body = Array(bytes.dropLast(8))
    let version = body[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let checksum = body.withUnsafeBytes { CatalogChecksum.of($0, formatVersion: version) }
    withUnsafeBytes(of: checksum.littleEndian) { body.append(contentsOf: $0) }
    return body
  }

  @Test("A catalog round-trips through its file: parameters, tracks, index and summary")
  func roundTrip() throws {
    let catalog = try Self.catalog()
    let folder = try TemporaryDirectory()
    let url = folder.file("songs.bmcat")
    try catalog.write(to: url)
    let loaded = try Catalog.load(from: url)
    #expect(loaded.parameters == catalog.parameters)
    #expect(loaded.tracks == catalog.tracks)
    #expect(Self.entries(loaded) == Self.entries(catalog))
    #expect(loaded.index.directoryBits == catalog.index.directoryBits)
    #expect(loaded.index.positionBits == catalog.index.positionBits)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    #expect(loaded.info(fileBytes: size).hashCount == catalog.info().hashCount)
    #expect(size == Layout(try catalog.encoded(), catalog: catalog).trailer.upperBound)
  }

  @Test("A loaded catalog's posting fences, read in the pieces its checksum reads, are every 32nd of its postings")
  func fencesReadInPieces() throws {
    // Hashes of 12 bits keep whole hashes in the directory's slots, as catalogs of millions of postings do, so that
    // the search reads its postings through fences.
    let songs = (41...70).map { SyntheticSong(seed: UInt64($0), seconds: 80) }
    let catalog = try MatcherHarness.catalog(of: songs, parameters: CatalogValidationTests.coarse)
    let folder = try TemporaryDirectory()
    let url = folder.file("coarse.bmcat")
    try catalog.write(to: url)
    let loaded = try Catalog.load(from: url)
    let fences = try #require(loaded.pairFences)
    #expect(4 * loaded.index.postings.count > 3 * (1 << 16), "the postings span several of the checksum's pieces")
    let derived = PostingFences(postings: loaded.index.postings)
    #expect(fences.phase == derived.phase && fences.values.count == derived.values.count)
    #expect(fences.values.count == (loaded.index.postings.count - fences.phase + 31) / 32)
    let wrong = fences.values.indices.first { fences.values[$0] != loaded.index.postings[fences.phase + 32 * $0] }
    #expect(wrong == nil, "fence \(wrong ?? 0) of \(fences.values.count)")
  }

  /// Expects `loaded` to find, in `song` on air, the one play `catalog` finds: the same track, start and matches.
  static func expectSamePlays(_ loaded: Catalog, as catalog: Catalog, in song: SyntheticSong) throws {
    let broadcast = song.render()
    let fromMemory = try MatcherHarness.run(broadcast, catalog: catalog).sink.ended
    let fromFile = try MatcherHarness.run(broadcast, catalog: loaded).sink.ended
    #expect(fromMemory.count == 1)
    #expect(fromFile.map(\.track.key) == fromMemory.map(\.track.key))
    #expect(fromFile.map(\.startSeconds) == fromMemory.map(\.startSeconds))
    #expect(fromFile.map(\.matchCount) == fromMemory.map(\.matchCount))
  }

  @Test("A loaded catalog finds the same plays as the one built in memory")
  func loadedCatalogMatches() throws {
    let catalog = try Self.catalog()
    let folder = try TemporaryDirectory()
    try catalog.write(to: folder.file("songs.bmcat"))
    let loaded = try Catalog.load(from: folder.file("songs.bmcat"))
    try Self.expectSamePlays(loaded, as: catalog, in: Self.songs[2])
  }

  @Test(
    "A catalog loaded into its own copy, as the monitor loads it, stays whole and finds the same plays after its file is cut short and written over"
  )
  func ownCopyOutlivesTheFile() throws {
    let catalog = try Self.catalog()
    let folder = try TemporaryDirectory()
    let url = folder.file("songs.bmcat")
    try catalog.write(to: url)
    let loaded = try Catalog.load(from: url, ownCopy: true)
    // What `cp` or `dd` onto the file does: cut to nothing, then written again (here with other bytes).
    let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    #expect(truncate(url.path, 0) == 0)
    try Data(repeating: 0xA5, count: size / 2).write(to: url)
    #expect(loaded.tracks == catalog.tracks)
    #expect(Self.entries(loaded).elementsEqual(Self.entries(catalog)))
    try Self.expectSamePlays(loaded, as: catalog, in: Self.songs[1])
  }

  @Test(
    "A loaded catalog knows its file unchanged, and not a copy, a catalog built in memory, or the file written over in place with its size and time set back"
  )
  func unchangedFile() throws {
    let catalog = try Self.catalog()
    let folder = try TemporaryDirectory()
    let url = folder.file("songs.bmcat")
    try catalog.write(to: url)
    let loaded = try Catalog.load(from: url, ownCopy: true)
    #expect(loaded.isUnchangedFile(at: url.path))
    #expect(!catalog.isUnchangedFile(at: url.path))
    try FileManager.default.copyItem(at: url, to: folder.file("copy.bmcat"))
    #expect(!loaded.isUnchangedFile(at: folder.file("copy.bmcat").path))
    #expect(!loaded.isUnchangedFile(at: folder.file("missing.bmcat").path))

    // Another catalog of the same size written into the same file, its modification time then set back.
    var before = stat()
    #expect(stat(url.path, &before) == 0)
    var other = try catalog.encoded()
    other[other.count - 9] ^= 0xFF
    other = Self.resealed(other)
    let handle = try FileHandle(forWritingTo: url)
    try handle.write(contentsOf: other)
    try handle.close()
    var times = [before.st_atim, before.st_mtim]
    #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    #expect(try ReadOnlyFile(path: url.path).identity == loaded.fileIdentity)
    #expect(!loaded.isUnchangedFile(at: url.path))
  }

  @Test("A flipped byte in the header, the directory, the postings or the trailer fails the load with a checksum error")
  func flippedByte() throws {
    let catalog = try Self.catalog()
    let bytes = try catalog.encoded()
    let layout = Layout(bytes, catalog: catalog)
    #expect(layout.trailer.count == 8)
    let positions = [
      ("header length", 12),
      ("header", layout.header.lowerBound),
      ("header", layout.header.lowerBound + layout.header.count / 2),
      ("padding", layout.directory.lowerBound - 1),
      ("directory", layout.directory.lowerBound),
      ("directory", layout.directory.lowerBound + layout.directory.count / 2 + 1),
      ("postings", layout.postings.lowerBound + 2),
      ("postings", layout.postings.upperBound - 1),
      ("triplets", layout.triplets.lowerBound),
      ("triplets", layout.triplets.upperBound - 1),
      ("trailer", layout.trailer.lowerBound),
      ("trailer", layout.trailer.upperBound - 1),
    ]
    let folder = try TemporaryDirectory()
    for (part, position) in positions {
      var damaged = bytes
      damaged[position] ^= 0x01
      let url = folder.file("damaged-\(position).bmcat")
      try Data(damaged).write(to: url)
      let error = #expect(throws: FormatError.self, "\(part) byte \(position)") { try Catalog.load(from: url) }
      #expect(error?.reason.contains("checksum") == true, "\(part) byte \(position): \(String(describing: error))")
      #expect(error?.description.contains(url.path) == true)
    }
  }

  @Test("A truncated catalog fails the load: a checksum error, or cut short of its header, or not a catalog")
  func truncated() throws {
    let catalog = try Self.catalog()
    let bytes = try catalog.encoded()
    let layout = Layout(bytes, catalog: catalog)
    let folder = try TemporaryDirectory()
    for length in [bytes.count - 1, bytes.count - 8, layout.postings.lowerBound, layout.header.lowerBound + 10, 30] {
      let url = folder.file("truncated-\(length).bmcat")
      try Data(bytes.prefix(length)).write(to: url)
      let error = #expect(throws: FormatError.self) { try Catalog.load(from: url) }
      #expect(error?.reason.contains("checksum") == true, "\(length) bytes: \(String(describing: error))")
    }
    for length in [1, 7, 8, 12, 20] {
      let url = folder.file("stub-\(length).bmcat")
      try Data(bytes.prefix(length)).write(to: url)
      let error = #expect(throws: FormatError.self, "\(length) bytes") { try Catalog.load(from: url) }
      let expected = length < Catalog.magic.count ? "wrong magic bytes" : "truncated: \(length) bytes"
      #expect(error?.reason.contains(expected) == true, "\(length) bytes: \(String(describing: error))")
    }
  }

  @Test("A newer format version, or version 0, is refused, naming the versions this build reads")
  func otherVersion() throws {
    for version: UInt8 in [0, UInt8(Catalog.formatVersion + 1), UInt8(Catalog.formatVersion + 3)] {
      var bytes = try Self.catalog().encoded()
      bytes[8] = version
      let folder = try TemporaryDirectory()
      let url = folder.file("v\(version).bmcat")
      try Data(Self.resealed(bytes)).write(to: url)
      let error = #expect(throws: FormatError.self) { try Catalog.load(from: url) }
      #expect(error?.reason.contains("format version \(version);") == true, "\(String(describing: error))")
      #expect(error?.reason.contains("versions 1 to \(Catalog.formatVersion)") == true)
      #expect(error?.reason.contains("written by a newer broadcast-monitor") == (version > Catalog.formatVersion))
    }
  }

  /// The bytes of `catalog` as format version 1 wrote them: no triplet index, a plain directory.
  static func versionOne(_ catalog: Catalog) throws -> [UInt8] { try olderFormat(catalog, version: 1) }

  /// The header of `catalog`'s file as a JSON object, with the tracks in it, as format versions 1 to 3 wrote it
  /// (without `loudEndSeconds`).
  static func headerWithTracks(_ catalog: Catalog) throws -> [String: Any] {
    let bytes = try catalog.encoded()
    var header = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[Layout(bytes, catalog: catalog).header])) as? [String: Any])
    header["trackTable"] = nil
    var tracks = try #require(
      try JSONSerialization.jsonObject(with: try JSONEncoder().encode(catalog.tracks)) as? [[String: Any]])
    for i in tracks.indices { tracks[i]["loudEndSeconds"] = nil }
    header["tracks"] = tracks
    return header
  }

  /// `catalog` as a file of format version 4 or older knows it: every track loud to its audible end.
  static func withoutLoudEnds(_ catalog: Catalog) -> Catalog {
    Catalog(
      parameters: catalog.parameters,
      tracks: catalog.tracks.map { track in
        var t = track
        t.loudEndSeconds = t.audibleEndSeconds
        return t
      }, index: catalog.index, stopHashCap: catalog.stopHashCap, triplets: catalog.triplets)
  }

  /// The bytes of `catalog` as format version 4 wrote them: the track table without the tracks' loud ends.
  static func versionFour(_ catalog: Catalog) throws -> [UInt8] {
    let bytes = try catalog.encoded()
    let layout = Layout(bytes, catalog: catalog)
    let table = CatalogTrackTableTests.versionFourTable(catalog.tracks)
    var header = try #require(try JSONSerialization.jsonObject(with: Data(bytes[layout.header])) as? [String: Any])
    var geometry = try #require(header["trackTable"] as? [String: Any])
    geometry["bytes"] = table.count
    header["trackTable"] = geometry
    let json = try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)
    var out = BinaryWriter()
    out.append(bytes: bytes[0..<8])
    out.append(UInt32(4))
    out.append(UInt32(json.count))
    out.append(bytes: json)
    out.align(to: 16)
    out.append(bytes: table)
    out.align(to: 16)
    out.append(bytes: bytes[layout.directory.lowerBound..<layout.trailer.lowerBound])
    out.append(UInt64(0))
    return resealed(out.bytes)
  }

  @Test(
    "A version 4 catalog, without the recordings' loud ends, loads with every track loud to its audible end; upgraded, it is the file this build writes"
  )
  func versionFourLoadsAndUpgrades() throws {
    let catalog = try Self.catalog()
    try Self.expectLoadsAndUpgrades(try Self.versionFour(catalog), version: 4, as: Self.withoutLoudEnds(catalog))
  }

  /// Checks that `bytes`, a catalog file of format `version`, loads as `expected` (its tracks and its index), and that
  /// the catalog loaded, written again, is the file this build writes of `expected`, read back as this build's version.
  static func expectLoadsAndUpgrades(_ bytes: [UInt8], version: UInt32, as expected: Catalog) throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("v\(version).bmcat")
    try Data(bytes).write(to: url)
    let loaded = try Catalog.load(from: url)
    #expect(loaded.info().formatVersion == version)
    #expect(loaded.tracks == expected.tracks)
    #expect(Self.entries(loaded) == Self.entries(expected))
    try loaded.write(to: url)
    #expect(Array(try Data(contentsOf: url)) == (try expected.encoded()))
    #expect(try Catalog.load(from: url).info().formatVersion == Catalog.formatVersion)
  }

  /// The bytes of `catalog` as format version 5 wrote them: this build's, sealed with `Checksum64`.
  static func versionFive(_ catalog: Catalog) throws -> [UInt8] {
    var bytes = try catalog.encoded()
    bytes[8] = 5
    return resealed(bytes)
  }

  @Test("A version 5 catalog, sealed with the older checksum, loads; upgraded, it is the file this build writes")
  func versionFiveLoadsAndUpgrades() throws {
    let catalog = try Self.catalog()
    let bytes = try Self.versionFive(catalog)
    let body = Array(bytes.dropLast(8))
    #expect(Array(bytes.suffix(8)) == withUnsafeBytes(of: Checksum64.of(body).littleEndian) { Array($0) })
    try Self.expectLoadsAndUpgrades(bytes, version: 5, as: catalog)
  }

  @Test("This build seals its catalogs with XXH3-64, and refuses one of its version sealed with the older checksum")
  func currentVersionIsSealedWithXXH3() throws {
    let bytes = try Self.catalog().encoded()
    let body = Array(bytes.dropLast(8))
    let xxh3 = body.withUnsafeBytes { XXH3Stream.of($0) }
    #expect(Array(bytes.suffix(8)) == withUnsafeBytes(of: xxh3.littleEndian) { Array($0) })
    let folder = try TemporaryDirectory()
    let url = folder.file("older-checksum.bmcat")
    try Data(body + withUnsafeBytes(of: Checksum64.of(body).littleEndian) { Array($0) }).write(to: url)
    let error = #expect(throws: FormatError.self) { try Catalog.load(from: url) }
    #expect(error?.reason.contains("checksum mismatch") == true)
  }

  /// The bytes of `catalog` as format version 3, 2 or 1 wrote them: the tracks in the JSON header; before version 3
  /// each index's directory a plain list of UInt32 offsets, and in version 1 no triplet index.
  static func olderFormat(_ catalog: Catalog, version: UInt32) throws -> [UInt8] {
    let bytes = try catalog.encoded()
    let layout = Layout(bytes, catalog: catalog)
    var header = try headerWithTracks(catalog)
    if version < 3 {
      header["directoryBlockBits"] = nil
      if version == 1 {
        header["triplets"] = nil
      } else {
        var triplets = try #require(header["triplets"] as? [String: Any])
        triplets["directoryBlockBits"] = nil
        header["triplets"] = triplets
      }
    }
    let json = try JSONSerialization.data(withJSONObject: header)
    var out = BinaryWriter()
    out.append(bytes: bytes[0..<8])
    out.append(version)
    out.append(UInt32(json.count))
    out.append(bytes: json)
    out.align(to: 16)
    if version == 3 {
      out.append(bytes: bytes[layout.directory.lowerBound..<layout.trailer.lowerBound])
    } else {
      for index in [catalog.index] + (version == 2 ? [try #require(catalog.triplets).index] : []) {
        for word in index.directory { out.append(word) }
        for word in index.postings { out.append(word) }
      }
    }
    out.append(UInt64(0))
    return resealed(out.bytes)
  }

  @Test(
    "A version 3 catalog, with its tracks in the JSON header, loads with the same tracks and index; upgraded, it is the file this build writes"
  )
  func versionThreeLoadsAndUpgrades() throws {
    let catalog = Self.withoutLoudEnds(try Self.catalog())
    try Self.expectLoadsAndUpgrades(try Self.olderFormat(catalog, version: 3), version: 3, as: catalog)
  }

  @Test(
    "A version 2 catalog, with plain directories, loads with the same index and finds the same plays; upgraded, it is the file this build writes"
  )
  func versionTwoLoadsAndUpgrades() throws {
    let catalog = Self.withoutLoudEnds(try Self.catalog())
    let folder = try TemporaryDirectory()
    let url = folder.file("v2.bmcat")
    let old = try Self.olderFormat(catalog, version: 2)
    try Data(old).write(to: url)
    let loaded = try Catalog.load(from: url)
    #expect(loaded.info().formatVersion == 2)
    #expect(Array(loaded.index.directory) == Array(catalog.index.directory))
    #expect(Array(loaded.index.postings) == Array(catalog.index.postings))
    let triplets = try #require(loaded.triplets).index
    #expect(Array(triplets.directory) == Array(try #require(catalog.triplets).index.directory))
    #expect(triplets.directory.blockBits == SlotDirectory.maxBlockBits)
    let broadcast = Self.songs[1].render()
    let fromNew = try MatcherHarness.run(broadcast, catalog: catalog).sink.ended
    let fromOld = try MatcherHarness.run(broadcast, catalog: loaded).sink.ended
    #expect(fromNew.count == 1)
    #expect(fromOld.map(\.track.key) == fromNew.map(\.track.key))
    #expect(fromOld.map(\.startSeconds) == fromNew.map(\.startSeconds))
    try loaded.write(to: url)
    let upgraded = try Data(contentsOf: url)
    #expect(Array(upgraded) == (try catalog.encoded()))
    #expect(upgraded.count < old.count)
    #expect(try Catalog.load(from: url).info().formatVersion == Catalog.formatVersion)
  }

  @Test("A version 1 catalog, without the triplet index, loads and finds the same plays; upgraded, it has the index")
  func versionOneLoadsAndUpgrades() throws {
    let catalog = try Self.catalog()
    let folder = try TemporaryDirectory()
    let url = folder.file("v1.bmcat")
    try Data(Self.versionOne(catalog)).write(to: url)
    let old = try Catalog.load(from: url)
    #expect(old.triplets == nil)
    #expect(old.info().hasTripletIndex == false)
    #expect(old.tracks.map(\.key) == catalog.tracks.map(\.key))
    let broadcast = Self.songs[1].render()
    let fromNew = try MatcherHarness.run(broadcast, catalog: catalog).sink.ended
    let fromOld = try MatcherHarness.run(broadcast, catalog: old).sink.ended
    #expect(fromNew.count == 1)
    #expect(fromOld.map(\.track.key) == fromNew.map(\.track.key))
    try old.write(to: url)
    let upgraded = try Catalog.load(from: url)
    let derived = try #require(upgraded.triplets).index
    let built = try #require(catalog.triplets).index
    #expect(Array(derived.directory) == Array(built.directory))
    #expect(Array(derived.postings) == Array(built.postings))
    #expect(Array(upgraded.index.postings) == Array(catalog.index.postings))
  }

  @Test(
    "Damage to the sizes read before the checksum (the header's length, the track table's count) is reported as the checksum mismatch"
  )
  func sizesDamagedBeforeTheChecksum() throws {
    let catalog = try Self.catalog()
    let bytes = try catalog.encoded()
    let layout = Layout(bytes, catalog: catalog)
    let folder = try TemporaryDirectory()
    let header = String(decoding: bytes[layout.header], as: UTF8.self)
    let count = try #require(header.range(of: "\"count\":\(catalog.tracks.count)"))
    var longHeader = bytes
    longHeader.replaceSubrange(12..<16, with: withUnsafeBytes(of: UInt32(bytes.count - 40).littleEndian, Array.init))
    var moreTracks = bytes
    moreTracks[layout.header.lowerBound + header.utf8.distance(from: header.startIndex, to: count.upperBound) - 1] =
      UInt8(ascii: "9")
    for (name, damaged) in [("header length", longHeader), ("track count", moreTracks)] {
      let url = folder.file("\(name).bmcat")
      try Data(damaged).write(to: url)
      let error = #expect(throws: FormatError.self, "\(name)") { try Catalog.load(from: url) }
      #expect(error?.reason.contains("checksum mismatch") == true, "\(name): \(String(describing: error))")
    }
  }

  @Test("Files that are not catalogs are refused, naming the file")
  func notACatalog() throws {
    let folder = try TemporaryDirectory()
    let text = folder.file("notes.bmcat")
    try Data("this is not a catalog, just some text".utf8).write(to: text)
    let wrongMagic = #expect(throws: FormatError.self) { try Catalog.load(from: text) }
    #expect(wrongMagic?.reason.contains("magic") == true)
    #expect(wrongMagic?.path == text.path)
    let empty = folder.file("empty.bmcat")
    try Data().write(to: empty)
    let emptyError = #expect(throws: FormatError.self) { try Catalog.load(from: empty) }
    #expect(emptyError?.description.contains("empty file (0 bytes), not a catalog; restore a backup") == true)
    let missing = #expect(throws: FormatError.self) { try Catalog.load(from: folder.file("missing.bmcat")) }
    #expect(missing?.description.contains("missing.bmcat") == true)
  }

  @Test("Writing into a folder that does not exist is a FormatError naming the folder")
  func writeToMissingFolder() throws {
    let folder = try TemporaryDirectory()
    let url = folder.url.appendingPathComponent("no/such/folder/songs.bmcat")
    let error = #expect(throws: FormatError.self) { try Self.catalog().write(to: url) }
    #expect(error?.description.contains("no/such/folder") == true)
  }

  @Test("Tracks lie end to end on one frame axis, a gap between them; a position in a gap belongs to no track")
  func frameAxis() throws {
    let catalog = try Self.catalog()
    var expectedStart: UInt32 = 0
    for (i, track) in catalog.tracks.enumerated() {
      #expect(track.globalStartFrame == expectedStart)
      #expect(catalog.trackIndex(containing: track.globalStartFrame) == i)
      #expect(catalog.trackIndex(containing: track.globalStartFrame + track.frameCount - 1) == i)
      #expect(catalog.trackIndex(containing: track.globalStartFrame + track.frameCount) == nil)
      #expect(catalog.trackIndex(containing: track.globalStartFrame + track.frameCount + Catalog.gapFrames - 1) == nil)
      expectedStart = track.globalStartFrame + track.frameCount + Catalog.gapFrames
    }
    #expect(catalog.trackIndex(containing: .max) == nil)
  }

  @Test("The summary counts tracks, hours of audio and hashes")
  func info() throws {
    let catalog = try Self.catalog()
    let info = catalog.info(fileBytes: 1234)
    #expect(info.trackCount == 3)
    #expect(abs(info.hours - 30.0 / 3600) < 1e-6)
    #expect(info.hashCount == catalog.index.postings.count)
    #expect(info.hashCount > 0 && info.hashCount <= catalog.tracks.reduce(0) { $0 + $1.hashCount })
    #expect(info.indexBytes == catalog.index.bytes + (catalog.triplets?.bytes ?? -1))
    #expect(info.hasTripletIndex)
    #expect(info.formatVersion == Catalog.formatVersion)
    #expect(info.fileBytes == 1234)
  }

}
