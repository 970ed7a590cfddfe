import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("CatalogAppend")
struct CatalogAppendTests {
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

  @Test("A grown catalog, merged into its file as it is written, is the file of the catalog made in memory")
  func streamedFileIsTheBuiltOne() throws {
    let folder = try TemporaryDirectory()
    let editor = try Self.grown()
    guard case .grown = try editor.prepared() else {
      Issue.record("an editor that only adds tracks does not grow the catalog it edits")
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
    #expect(loaded.tracks.map(\.key) == Self.songs.map { "song-\($0.seed)" })
  }

  @Test("Shared recordings found in a grown catalog without making it are those found in the catalog made")
  func sharedRecordingsWithoutTheCatalog() throws {
    let long = (86...88).map { SyntheticSong(seed: UInt64($0), seconds: 20).render() }
    let first = CatalogBuilder()
    try Self.add(long[0], key: "album", to: first)
    try Self.add(long[1], key: "other", to: first)
    let editor = CatalogBuilder(editing: try first.build())
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
    guard case .built(let smaller) = try editor.prepared() else {
      Issue.record("a catalog with a track of the edited one removed is still grown from it")
      return
    }
    #expect(smaller.tracks.map(\.key) == ["song-82", "song-83", "song-84", "song-85"])
  }
}
