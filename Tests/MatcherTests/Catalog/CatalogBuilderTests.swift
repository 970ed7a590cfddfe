import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("CatalogBuilder")
struct CatalogBuilderTests {
  static let songs = (41...44).map { SyntheticSong(seed: UInt64($0), seconds: 8) }

  static func signature(_ song: SyntheticSong) throws -> Signature {
    try MatcherHarness.referenceSignature(of: song.render())
  }

  static func add(_ song: SyntheticSong, to builder: CatalogBuilder) throws {
    builder.add(
      signature: try signature(song), key: MatcherHarness.key(of: song), sourcePath: "synthetic/\(song.seed)",
      metadata: TrackMetadata(title: MatcherHarness.title(of: song)))
  }

  /// Each track's hashes as (hash, frame from the track's start), sorted, by key: independent of where the
  /// track lies on the catalog's frame axis.
  static func hashesByTrack(_ catalog: Catalog) -> [String: [[UInt32]]] {
    var out: [String: [[UInt32]]] = [:]
    for t in catalog.tracks { out[t.key] = [] }
    for e in catalog.index.entries() {
      guard let i = catalog.trackIndex(containing: e.position) else {
        Issue.record("posting \(e.position) lies in a gap")
        continue
      }
      out[catalog.tracks[i].key, default: []].append([e.hash, e.position - catalog.tracks[i].globalStartFrame])
    }
    return out.mapValues { $0.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) } }
  }

  @Test("Editing a catalog and building it again gives the same tracks and the same index")
  func editRoundTrip() throws {
    let builder = CatalogBuilder()
    for song in Self.songs { try Self.add(song, to: builder) }
    let catalog = try builder.build()
    let rebuilt = try CatalogBuilder(editing: catalog).build()
    #expect(rebuilt.tracks == catalog.tracks)
    #expect(Self.hashesByTrack(rebuilt) == Self.hashesByTrack(catalog))
    #expect(rebuilt.index.postings.count == catalog.index.postings.count)
  }

  @Test("Removing a track keeps the others' hashes and closes up the frame axis")
  func remove() throws {
    let builder = CatalogBuilder()
    for song in Self.songs { try Self.add(song, to: builder) }
    let catalog = try builder.build()
    let editor = CatalogBuilder(editing: catalog)
    let removedKey = MatcherHarness.key(of: Self.songs[1])
    let removed = try #require(editor.remove(key: removedKey))
    #expect(removed.key == removedKey)
    #expect(editor.remove(key: removedKey) == nil)
    #expect(editor.remove(key: "no-such-key") == nil)
    #expect(!editor.contains(key: removedKey))
    let smaller = try editor.build()
    #expect(smaller.tracks.map(\.key) == catalog.tracks.map(\.key).filter { $0 != removedKey })
    var expected = Self.hashesByTrack(catalog)
    expected[removedKey] = nil
    #expect(Self.hashesByTrack(smaller) == expected)
    // The track after the removed one now starts where the removed one started.
    #expect(smaller.tracks[1].globalStartFrame == catalog.tracks[1].globalStartFrame)
    #expect(smaller.info().hashCount == catalog.info().hashCount - catalog.tracks[1].hashCount)
  }

  @Test("Adding to an edited catalog gives the same index as building everything at once")
  func addToEdited() throws {
    let all = CatalogBuilder()
    for song in Self.songs { try Self.add(song, to: all) }
    let first = CatalogBuilder()
    for song in Self.songs.prefix(2) { try Self.add(song, to: first) }
    let editor = CatalogBuilder(editing: try first.build())
    for song in Self.songs.dropFirst(2) { try Self.add(song, to: editor) }
    let incremental = try editor.build()
    let atOnce = try all.build()
    #expect(incremental.tracks.map(\.key) == atOnce.tracks.map(\.key))
    #expect(incremental.tracks.map(\.globalStartFrame) == atOnce.tracks.map(\.globalStartFrame))
    #expect(Self.hashesByTrack(incremental) == Self.hashesByTrack(atOnce))
    // The triplet index, merged rather than derived again, holds the same agreeing pairs (keys compared at the
    // shorter of the two widths).
    let merged = try #require(incremental.triplets).index
    let derived = try #require(atOnce.triplets).index
    let bits = min(merged.hashBits, derived.hashBits)
    func entries(_ index: CatalogIndex) -> [UInt64] {
      var out: [UInt64] = []
      index.forEachEntry { key, target in
        out.append(UInt64(key >> UInt32(index.hashBits - bits)) << 32 | UInt64(target))
      }
      return out.sorted()
    }
    #expect(!entries(derived).isEmpty)
    #expect(entries(merged) == entries(derived))
  }

  @Test("Adding a key that is already there replaces the track: still one track, with the same hashes")
  func reAddIsIdempotent() throws {
    let once = CatalogBuilder()
    try Self.add(Self.songs[0], to: once)
    let twice = CatalogBuilder()
    try Self.add(Self.songs[0], to: twice)
    try Self.add(Self.songs[0], to: twice)
    #expect(twice.trackCount == 1)
    let a = try once.build()
    let b = try twice.build()
    #expect(b.tracks.map(\.key) == [MatcherHarness.key(of: Self.songs[0])])
    #expect(Self.hashesByTrack(a) == Self.hashesByTrack(b))
    // Re-adding to a catalog loaded back from its edit too.
    let editor = CatalogBuilder(editing: b)
    try Self.add(Self.songs[0], to: editor)
    #expect(Self.hashesByTrack(try editor.build()) == Self.hashesByTrack(a))
  }

  @Test("updateMetadata changes a track's metadata and nothing else; an unknown key is refused")
  func updateMetadata() throws {
    let builder = CatalogBuilder()
    try Self.add(Self.songs[0], to: builder)
    let before = try builder.build()
    let key = MatcherHarness.key(of: Self.songs[0])
    let metadata = TrackMetadata(title: "Renamed", artist: "Someone", isrc: "ZZXXX0000001", kind: .jingle)
    #expect(builder.updateMetadata(key: key, metadata: metadata))
    #expect(!builder.updateMetadata(key: "no-such-key", metadata: metadata))
    let after = try builder.build()
    #expect(after.tracks.first?.metadata == metadata)
    var expected = before.tracks[0]
    expected.metadata = metadata
    #expect(after.tracks == [expected])
    #expect(Self.hashesByTrack(after) == Self.hashesByTrack(before))
  }

  /// A reference signature of random peaks, 12 a second as music gives, `seconds` long; `repeats` more pairs of one
  /// fixed pitch interval 5 frames apart follow (one hash each, the same in every track), 100 frames apart.
  static func randomSignature(seconds: Double, seed: UInt64, repeats: Int = 0) -> Signature {
    let p = FingerprintParameters()
    var generator = SeededGenerator(seed: seed)
    let frames = Int(seconds * p.framesPerSecond)
    var peaks: [Peak] = []
    var carry = 0.0
    for f in 0..<frames {
      carry += 12 / p.framesPerSecond
      while carry >= 1 {
        carry -= 1
        peaks.append(Peak(frame: Int32(f), bin: Float.random(in: 33...479, using: &generator), strength: 10))
      }
    }
    var frame = Int32(frames + 100)
    for _ in 0..<repeats {
      peaks.append(Peak(frame: frame, bin: 200, strength: 10))
      peaks.append(Peak(frame: frame + 5, bin: 220, strength: 10))
      frame += 100
    }
    return Signature(
      parameters: p, sampleCount: Int(frame) * p.hopSizeSamples + p.fftSizeSamples, peaks: peaks,
      audibleStartSeconds: 0, audibleEndSeconds: seconds)
  }

  static func addRandom(_ seeds: some Sequence<UInt64>, to builder: CatalogBuilder, repeats: Int = 0) {
    for seed in seeds {
      builder.add(
        signature: randomSignature(seconds: 60, seed: seed, repeats: repeats), key: "random-\(seed)",
        sourcePath: "random/\(seed)", metadata: TrackMetadata(title: "Random \(seed)"))
    }
  }

  /// The tracks with their `addedAt` times, which differ from one build to another, left out.
  static func tracksWithoutTimes(_ catalog: Catalog) -> [CatalogTrack] {
    catalog.tracks.map {
      var t = $0
      t.addedAt = Date(timeIntervalSinceReferenceDate: 0)
      return t
    }
  }

  /// True when two catalogs have the same tracks (but for `addedAt`) and the same index, array for array.
  static func same(_ a: Catalog, _ b: Catalog) -> Bool {
    tracksWithoutTimes(a) == tracksWithoutTimes(b) && Array(a.index.directory) == Array(b.index.directory)
      && Array(a.index.postings) == Array(b.index.postings) && a.index.positionBits == b.index.positionBits
      && a.stopHashCap == b.stopHashCap
  }

  @Test("Adding to a catalog loaded from its file merges into its index: the same catalog as a full build")
  func appendToLoadedCatalog() throws {
    let all = CatalogBuilder()
    Self.addRandom(1...30, to: all)
    let atOnce = try all.build()
    let first = CatalogBuilder()
    Self.addRandom(1...10, to: first)
    let folder = try TemporaryDirectory()
    try first.build().write(to: folder.file("first.bmcat"))
    let loaded = try Catalog.load(from: folder.file("first.bmcat"))
    let editor = CatalogBuilder(editing: loaded)
    Self.addRandom(11...30, to: editor)
    let appended = try editor.build()
    #expect(appended.index.directoryBits > loaded.index.directoryBits, "the directory grew on the way")
    #expect(Self.same(appended, atOnce))
    // The tracks the catalog had keep their places, and an edit that only renames keeps the index as it is.
    #expect(appended.tracks.prefix(10).map(\.globalStartFrame) == loaded.tracks.map(\.globalStartFrame))
    let renamer = CatalogBuilder(editing: appended)
    #expect(renamer.updateMetadata(key: "random-3", metadata: TrackMetadata(title: "Renamed")))
    let renamed = try renamer.build()
    #expect(Array(renamed.index.postings) == Array(appended.index.postings))
    #expect(renamed.tracks[2].metadata.title == "Renamed")
  }

  @Test("A hash that added tracks push over the stop-hash cap loses the catalog's own postings too")
  func appendDropsStopHash() throws {
    // 10 repeats are within the cap's floor of 12; 70 are far over it.
    let all = CatalogBuilder()
    Self.addRandom(1...3, to: all)
    Self.addRandom([4], to: all, repeats: 10)
    Self.addRandom(5...6, to: all, repeats: 30)
    let atOnce = try all.build()
    let first = CatalogBuilder()
    Self.addRandom(1...3, to: first)
    Self.addRandom([4], to: first, repeats: 10)
    let before = try first.build()
    let editor = CatalogBuilder(editing: before)
    Self.addRandom(5...6, to: editor, repeats: 30)
    let appended = try editor.build()
    #expect(Self.same(appended, atOnce))
    let hasher = PairHasher(parameters: FingerprintParameters())
    let repeated = try #require(
      hasher.layout.hash(
        anchorPitch: hasher.pitch(ofBin: 200), interval: hasher.pitch(ofBin: 220) - hasher.pitch(ofBin: 200), frames: 5)
    )
    #expect(before.index.entries().contains { $0.hash == repeated })
    #expect(!appended.index.entries().contains { $0.hash == repeated })
  }

  @Test("Removing one of the catalog's tracks and adding others lays everything out anew, as a full build does")
  func removeThenAdd() throws {
    let first = CatalogBuilder()
    Self.addRandom(1...5, to: first)
    let editor = CatalogBuilder(editing: try first.build())
    editor.remove(key: "random-2")
    Self.addRandom(6...8, to: editor)
    let fresh = CatalogBuilder()
    Self.addRandom([1, 3, 4, 5, 6, 7, 8], to: fresh)
    #expect(Self.same(try editor.build(), try fresh.build()))
  }

  /// Entries with `count` postings for each hash, at distinct positions.
  static func entries(_ counts: [UInt32: Int]) -> [(hash: UInt32, position: UInt32)] {
    var out: [(hash: UInt32, position: UInt32)] = []
    var position: UInt32 = 0
    for (hash, count) in counts.sorted(by: { $0.key < $1.key }) {
      for _ in 0..<count {
        out.append((hash, position))
        position += 1
      }
    }
    return out
  }

  static func kept(_ counts: [UInt32: Int]) -> [UInt32: Int] {
    var out: [UInt32: Int] = [:]
    for e in CatalogBuilder.removingStopHashes(entries(counts), hashBits: 19).entries { out[e.hash, default: 0] += 1 }
    return out
  }

  @Test("A hash far more frequent than the others is dropped whole as a stop hash; the others keep every posting")
  func stopHashes() {
    var counts: [UInt32: Int] = [7: 1000]
    for h in UInt32(100)..<200 { counts[h] = 5 }
    var expected = counts
    expected[7] = nil
    #expect(Self.kept(counts) == expected)
    #expect(CatalogBuilder.removingStopHashes([], hashBits: 19).entries.isEmpty)
  }

  @Test("The cap follows the mean: the same count is a stop hash among rare hashes and not among common ones")
  func stopHashCapFollowsTheMean() {
    var rare: [UInt32: Int] = [7: 200]
    var common: [UInt32: Int] = [7: 200]
    for h in UInt32(100)..<200 {
      rare[h] = 2
      common[h] = 150
    }
    #expect(Self.kept(rare)[7] == nil)
    #expect(Self.kept(common) == common)
  }

  @Test("Above 4 times the mean, the cap rises until the hashes under it hold 70 % of the postings")
  func stopHashCapKeepsAShare() {
    // 500 postings on 110 hashes: 4 times the mean is 18, under which lie 40 % of them; 30 holds them all.
    var counts: [UInt32: Int] = [:]
    for h in UInt32(100)..<200 { counts[h] = 2 }
    for h in UInt32(300)..<310 { counts[h] = 30 }
    #expect(Self.kept(counts) == counts)
    #expect(CatalogBuilder.minKeptPostingShare == 0.70)
  }

  @Test("The share rule never raises the cap past 8 times the mean")
  func stopHashCapShareIsBounded() {
    // 800 postings on 110 hashes: 8 times the mean is 58, and holding 70 % of them takes a cap of 60.
    var counts: [UInt32: Int] = [:]
    for h in UInt32(100)..<200 { counts[h] = 2 }
    var expected = counts
    for h in UInt32(300)..<310 { counts[h] = 60 }
    #expect(Self.kept(counts) == expected)
    for h in UInt32(300)..<310 { counts[h] = 50 }
    for h in UInt32(300)..<310 { expected[h] = 50 }
    #expect(Self.kept(counts) == expected, "50 is under 8 times the mean (8 × 700 / 110 = 50.9)")
  }

  @Test("A few repeats are never a stop hash, however rare the other hashes are (the cap has a floor)")
  func stopHashFloor() {
    var counts: [UInt32: Int] = [7: 5]
    for h in UInt32(100)..<1100 { counts[h] = 1 }
    #expect(Self.kept(counts) == counts)
  }

  @Test("A reference whose one pair repeats all through it loses that pair's hash as a stop hash")
  func stopHashFromSignature() throws {
    let p = FingerprintParameters()
    // Pairs of peaks 100 frames apart, so that each pair makes exactly one hash: 60 of one pair, 40 others once.
    var peaks: [Peak] = []
    var frame: Int32 = 0
    func pair(_ anchorBin: Float, _ targetBin: Float, _ distance: Int32) {
      peaks.append(Peak(frame: frame, bin: anchorBin, strength: 10))
      peaks.append(Peak(frame: frame + distance, bin: targetBin, strength: 10))
      frame += 100
    }
    for _ in 0..<60 { pair(200, 220, 5) }
    for d in 1...40 { pair(100, 110, Int32(d)) }
    let signature = Signature(
      parameters: p, sampleCount: Int(frame) * p.hopSizeSamples + p.fftSizeSamples, peaks: peaks,
      audibleStartSeconds: 0, audibleEndSeconds: 1)
    let builder = CatalogBuilder()
    builder.add(signature: signature, key: "repetitive", sourcePath: "repetitive", metadata: TrackMetadata(title: "R"))
    let catalog = try builder.build()
    #expect(catalog.tracks[0].hashCount == 100)
    #expect(catalog.info().hashCount == 40)
    let hasher = PairHasher(parameters: p)
    let repeated = try #require(
      hasher.layout.hash(
        anchorPitch: hasher.pitch(ofBin: 200), interval: hasher.pitch(ofBin: 220) - hasher.pitch(ofBin: 200), frames: 5)
    )
    #expect(!catalog.index.entries().contains { $0.hash == repeated })
  }

  @Test("An empty builder builds an empty catalog, which round-trips and matches nothing")
  func empty() throws {
    let catalog = try CatalogBuilder().build()
    #expect(catalog.tracks.isEmpty)
    #expect(catalog.info().hashCount == 0)
    let folder = try TemporaryDirectory()
    try catalog.write(to: folder.file("empty.bmcat"))
    let loaded = try Catalog.load(from: folder.file("empty.bmcat"))
    #expect(loaded.tracks.isEmpty)
    let run = try MatcherHarness.run(Self.songs[0].render(), catalog: loaded)
    #expect(run.sink.started.isEmpty)
  }
}

@Suite("CatalogBuilder progress")
struct CatalogBuilderProgressTests {
  /// The steps `reports` shows, each once, in the order they first came; expects each step's reports contiguous, its
  /// share never falling and ending at 1.
  static func steps(of reports: [(CatalogBuilder.Step, Double)]) -> [CatalogBuilder.Step] {
    var order: [CatalogBuilder.Step] = []
    for (s, _) in reports where order.last != s { order.append(s) }
    #expect(Set(order).count == order.count, "a step's reports are not contiguous: \(order)")
    for step in order {
      let shares = reports.filter { $0.0 == step }.map(\.1)
      #expect(shares == shares.sorted())
      #expect(shares.last == 1)
    }
    return order
  }

  @Test("Laying a new catalog out reports the pair index, then the triplet index, each share rising to 1")
  func stepsInOrder() throws {
    let builder = CatalogBuilder()
    var reports: [(CatalogBuilder.Step, Double)] = []
    builder.progress = { reports.append(($0, $1)) }
    for song in CatalogBuilderTests.songs { try CatalogBuilderTests.add(song, to: builder) }
    try builder.prepare()
    #expect(Self.steps(of: reports) == [.pairIndex, .tripletIndex])
  }

  @Test("Removing a track reports the catalog's index read, ending at 1, and lays nothing out anew")
  func removalReadsTheIndex() throws {
    let builder = CatalogBuilder()
    for song in CatalogBuilderTests.songs { try CatalogBuilderTests.add(song, to: builder) }
    let editor = CatalogBuilder(editing: try builder.build())
    var reports: [(CatalogBuilder.Step, Double)] = []
    editor.progress = { reports.append(($0, $1)) }
    editor.remove(key: MatcherHarness.key(of: CatalogBuilderTests.songs[1]))
    try editor.prepare()
    #expect(Self.steps(of: reports) == [.readingIndex])
  }
}
