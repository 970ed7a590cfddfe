import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("CatalogEdit")
struct CatalogEditTests {
  static let songs = (81...85).map { SyntheticSong(seed: UInt64($0), seconds: 8) }

  static func add(_ samples: [Float], key: String, to builder: CatalogBuilder) throws {
    builder.add(
      signature: try MatcherHarness.referenceSignature(of: samples), key: key, sourcePath: "synthetic/\(key)",
      metadata: TrackMetadata(title: key))
  }

  /// A catalog of the first two songs, and an editor of it with the other three added.
  static func grown() throws -> CatalogBuilder {
    let first = CatalogBuilder()
    for song in songs.prefix(2) { try add(song.render(), key: "song-\(song.seed)", to: first) }
    let editor = CatalogBuilder(editing: try first.build())
    for song in songs.dropFirst(2) { try add(song.render(), key: "song-\(song.seed)", to: editor) }
    return editor
  }

  /// A catalog of the five songs, and an editor of it with two of them (one the first) removed.
  static func cut() throws -> CatalogBuilder {
    let first = CatalogBuilder()
    for song in songs { try add(song.render(), key: "song-\(song.seed)", to: first) }
    let editor = CatalogBuilder(editing: try first.build())
    editor.remove(key: "song-81")
    editor.remove(key: "song-83")
    return editor
  }

  /// Every posting of `index` as (hash, global frame), sorted.
  static func entries(_ index: CatalogIndex) -> [UInt64] {
    var all: [UInt64] = []
    index.forEachEntry { all.append(UInt64($0) << 32 | UInt64($1)) }
    return all.sorted()
  }

  /// The triplet postings of `index` with keys shortened to `keyBits` (no more than its own), sorted.
  static func triplets(_ index: CatalogIndex, keyBits: Int) -> [UInt64] {
    var all: [UInt64] = []
    index.forEachEntry { all.append(UInt64($0 >> UInt32(index.hashBits - keyBits)) << 32 | UInt64($1)) }
    return all.sorted()
  }

  @Test(
    "An edited catalog, merged into its file as it is written, is the file of the catalog made in memory",
    arguments: ["grown", "cut", "cut and grown"])
  func streamedFileIsTheBuiltOne(edit: String) throws {
    let folder = try TemporaryDirectory()
    let editor = try edit == "grown" ? Self.grown() : Self.cut()
    if edit == "cut and grown" { try Self.add(Self.songs[0].render(), key: "song-81-again", to: editor) }
    guard case .edited = try editor.prepared() else {
      Issue.record("an editor of a catalog lays it out anew")
      return
    }
    let streamed = folder.url.appendingPathComponent("streamed.bmcat")
    var reports: [(Int, Int)] = []
    try editor.write(to: streamed) { reports.append(($0, $1)) }
    let built = folder.url.appendingPathComponent("built.bmcat")
    try editor.build().write(to: built)
    let bytes = try Data(contentsOf: streamed)
    #expect(bytes == (try Data(contentsOf: built)))
    #expect(reports.last.map { [$0.0, $0.1] } == [bytes.count, bytes.count])
    let loaded = try Catalog.load(from: streamed)
    #expect(loaded.tracks.map(\.key) == editor.orderedTracks.map(\.key))
  }

  @Test("Tracks removed from a catalog leave the postings a catalog of the other tracks has, from the same signatures")
  func removalIsTheCatalogOfTheRest() throws {
    let rendered = Self.songs.map { $0.render() }
    let editor = try Self.cut()
    try Self.add(rendered[2], key: "song-83", to: editor)
    let edited = try editor.build()
    let fresh = CatalogBuilder()
    for i in [1, 3, 4, 2] { try Self.add(rendered[i], key: "song-\(Self.songs[i].seed)", to: fresh) }
    let whole = try fresh.build()
    #expect(edited.tracks.map(\.key) == whole.tracks.map(\.key))
    #expect(edited.tracks.map(\.globalStartFrame) == whole.tracks.map(\.globalStartFrame))
    #expect(edited.tracks.map(\.globalStartFrame).first == 0)
    #expect(edited.stopHashCap == whole.stopHashCap)
    #expect(Self.entries(edited.index) == Self.entries(whole.index))
    let (e, w) = (try #require(edited.triplets).index, try #require(whole.triplets).index)
    let keyBits = min(e.hashBits, w.hashBits)
    #expect(!Self.triplets(e, keyBits: keyBits).isEmpty)
    #expect(Self.triplets(e, keyBits: keyBits) == Self.triplets(w, keyBits: keyBits))
  }

  @Test("A catalog with every track removed and others added is a catalog of the added ones")
  func everythingRemoved() throws {
    let first = CatalogBuilder()
    for song in Self.songs.prefix(2) { try Self.add(song.render(), key: "song-\(song.seed)", to: first) }
    let editor = CatalogBuilder(editing: try first.build())
    editor.remove(key: "song-81")
    editor.remove(key: "song-82")
    try Self.add(Self.songs[4].render(), key: "song-85", to: editor)
    let edited = try editor.build()
    let fresh = CatalogBuilder()
    try Self.add(Self.songs[4].render(), key: "song-85", to: fresh)
    let whole = try fresh.build()
    #expect(edited.tracks.map(\.key) == ["song-85"])
    #expect(edited.tracks[0].globalStartFrame == 0)
    #expect(Self.entries(edited.index) == Self.entries(whole.index))
    #expect(edited.index.postings.count == whole.index.postings.count)
  }

  @Test("Shared recordings found in an edited catalog without making it are those found in the catalog made")
  func sharedRecordingsWithoutTheCatalog() throws {
    let long = (86...88).map { SyntheticSong(seed: UInt64($0), seconds: 20).render() }
    // "intro" is removed, so that the edited catalog's search moves "album" and "other" down the axis.
    let first = CatalogBuilder()
    try Self.add(long[1].map { $0 * 0.5 }, key: "intro", to: first)
    try Self.add(long[0], key: "album", to: first)
    try Self.add(long[1], key: "other", to: first)
    let editor = CatalogBuilder(editing: try first.build())
    editor.remove(key: "intro")
    try Self.add(Array(long[0].dropFirst(8000 * 6)).map { $0 * 0.8 }, key: "edit", to: editor)
    try Self.add(long[2], key: "new", to: editor)
    try Self.add(long[2].map { $0 * 0.7 }, key: "new-copy", to: editor)
    let keys = ["edit", "new", "new-copy"]
    let grown = try editor.sharedRecordings(ofKeys: keys)
    let made = editor.sharedRecordings(in: try editor.build(), ofKeys: keys)
    #expect(grown == made)
    #expect(grown.map { editor.orderedTracks[$0.trackIndex].key } == ["edit", "new-copy"])
    #expect(grown.map { editor.orderedTracks[$0.earlierTrackIndex].key } == ["album", "new"])
  }

  @Test("Any edit after the catalog was made makes it again")
  func editsMakeItAgain() throws {
    let editor = try Self.grown()
    let before = try editor.build()
    editor.updateMetadata(key: "song-83", metadata: TrackMetadata(title: "renamed"))
    let after = try editor.build()
    #expect(before.tracks.first { $0.key == "song-83" }?.metadata.title == "song-83")
    #expect(after.tracks.first { $0.key == "song-83" }?.metadata.title == "renamed")
    editor.remove(key: "song-81")
    let smaller = try editor.build()
    #expect(smaller.tracks.map(\.key) == ["song-82", "song-83", "song-84", "song-85"])
    #expect(smaller.tracks.first?.globalStartFrame == 0)
  }
}
