import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("CatalogBuilder: shared recordings")
struct CatalogBuilderSharedRecordingsTests {
  static let song = SyntheticSong(seed: 71, seconds: 20)
  static let others = (72...77).map { SyntheticSong(seed: UInt64($0), seconds: 20) }

  static func add(_ samples: [Float], key: String, to builder: CatalogBuilder) throws {
    builder.add(
      signature: try MatcherHarness.referenceSignature(of: samples), key: key, sourcePath: "synthetic/\(key)",
      metadata: TrackMetadata(title: key))
  }

  /// The song's samples from `seconds` on, a little quieter, as another encoding of it would be.
  static func excerpt(from seconds: Double) -> [Float] {
    Array(song.render().dropFirst(Int(seconds * 8000))).map { $0 * 0.8 }
  }

  @Test("A second copy of a recording under another key is reported against the first, at offset 0")
  func copyIsReported() throws {
    let builder = CatalogBuilder()
    for s in Self.others.prefix(2) { try Self.add(s.render(), key: "other-\(s.seed)", to: builder) }
    try Self.add(Self.song.render(), key: "first", to: builder)
    try Self.add(Self.excerpt(from: 0), key: "copy", to: builder)
    let catalog = try builder.build()
    let shared = builder.sharedRecordings(in: catalog, ofKeys: ["first", "copy"])
    let found = try #require(shared.first)
    #expect(shared.count == 1)
    #expect(catalog.tracks[found.trackIndex].key == "copy")
    #expect(catalog.tracks[found.earlierTrackIndex].key == "first")
    #expect(abs(found.offsetSeconds) < 0.05)
    #expect(found.share > 0.5)
    #expect(found.sharedSeconds > 15)
  }

  @Test("An excerpt of a recording (a radio edit) is reported with where it lies in the whole")
  func excerptIsReported() throws {
    let builder = CatalogBuilder()
    try Self.add(Self.song.render(), key: "album", to: builder)
    let catalog = try builder.build()
    let editor = CatalogBuilder(editing: catalog)
    try Self.add(Self.excerpt(from: 6), key: "edit", to: editor)
    let edited = try editor.build()
    let found = try #require(editor.sharedRecordings(in: edited, ofKeys: ["edit"]).first)
    #expect(edited.tracks[found.earlierTrackIndex].key == "album")
    #expect(abs(found.offsetSeconds - 6) < 0.05)
  }

  @Test("Of three copies added together, the second and the third are reported against the first")
  func threeCopies() throws {
    let builder = CatalogBuilder()
    for key in ["a", "b", "c"] { try Self.add(Self.excerpt(from: 0), key: key, to: builder) }
    let catalog = try builder.build()
    let shared = builder.sharedRecordings(in: catalog, ofKeys: ["a", "b", "c"])
    #expect(shared.map { catalog.tracks[$0.trackIndex].key } == ["b", "c"])
    #expect(shared.map { catalog.tracks[$0.earlierTrackIndex].key } == ["a", "a"])
  }

  @Test("A whole catalog checked at once gives what its tracks gave as they were added, from its index alone")
  func wholeCatalog() throws {
    let builder = CatalogBuilder()
    let whole = Self.excerpt(from: 0)
    try Self.add(Self.others[0].render(), key: "other", to: builder)
    try Self.add(Array(whole.prefix(10 * 8000)), key: "first-half", to: builder)
    try Self.add(whole, key: "whole", to: builder)
    try Self.add(Self.excerpt(from: 4), key: "late-start", to: builder)
    try Self.add(Array(whole.dropFirst(10 * 8000)), key: "second-half", to: builder)
    let catalog = try builder.build()
    let added = builder.sharedRecordings(in: catalog, ofKeys: catalog.tracks.map(\.key))
    #expect(added.map { catalog.tracks[$0.trackIndex].key } == ["whole", "late-start"])
    let folder = try TemporaryDirectory(prefix: "shared-recordings")
    try catalog.write(to: folder.file("whole.bmcat"))
    let loaded = try Catalog.load(from: folder.file("whole.bmcat"))
    #expect(CatalogBuilder.sharedRecordings(in: loaded) == added)
  }

  @Test("A track whose audio only a reported track holds is not reported: the reported track is left out")
  func reportedTracksAreLeftOut() throws {
    let builder = CatalogBuilder()
    let whole = Self.excerpt(from: 0)
    try Self.add(Array(whole.prefix(10 * 8000)), key: "first-half", to: builder)
    try Self.add(whole, key: "whole", to: builder)
    try Self.add(Array(whole.dropFirst(10 * 8000)), key: "second-half", to: builder)
    let catalog = try builder.build()
    let shared = builder.sharedRecordings(in: catalog, ofKeys: ["first-half", "whole", "second-half"])
    #expect(shared.map { catalog.tracks[$0.trackIndex].key } == ["whole"])
  }

  @Test("Distinct recordings share nothing: no track of seven synthetic songs is reported")
  func distinctRecordings() throws {
    let builder = CatalogBuilder()
    let songs = [Self.song] + Self.others
    for s in songs { try Self.add(s.render(), key: "song-\(s.seed)", to: builder) }
    let catalog = try builder.build()
    #expect(builder.sharedRecordings(in: catalog, ofKeys: songs.map { "song-\($0.seed)" }).isEmpty)
  }

  @Test("A track that only the tracks after it repeat is not reported: only earlier tracks count")
  func laterCopiesDoNotReportTheFirst() throws {
    let builder = CatalogBuilder()
    try Self.add(Self.song.render(), key: "first", to: builder)
    try Self.add(Self.excerpt(from: 0), key: "copy", to: builder)
    let catalog = try builder.build()
    #expect(builder.sharedRecordings(in: catalog, ofKeys: ["first"]).isEmpty)
  }
}
