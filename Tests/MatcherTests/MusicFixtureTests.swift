import Common
import Foundation
import Matcher
import TestSupport
import Testing

/// Integration on real music: the Ogg Vorbis excerpts in `Tests/Fixtures/music` (22.05 kHz mono, 30 s), decoded
/// by ffmpeg, fingerprinted, cataloged and matched through what radio does to them.
@Suite("Real music fixtures", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct MusicFixtureTests {
  static let catalogFiles = ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"]

  /// The catalog of a, b and c with the titles of `tracks.csv`, built once for the suite.
  static let catalogResult = Result { () throws -> Catalog in
    let fingerprinter = ReferenceFingerprinter(parameters: FingerprintParameters())
    let builder = CatalogBuilder(parameters: fingerprinter.parameters)
    for name in catalogFiles {
      let path = Fixtures.music(name).path
      let expected = Fixtures.musicTracks[name]!
      builder.add(
        signature: try fingerprinter.signature(ofFileAt: path), key: try ReferenceFingerprinter.key(ofFileAt: path),
        sourcePath: path, metadata: TrackMetadata(title: expected.title, artist: expected.artist, isrc: expected.isrc))
    }
    return try builder.build()
  }
  static func catalog() throws -> Catalog { try catalogResult.get() }

  /// A fixture decoded to mono at 8 kHz.
  static func decode(_ name: String) throws -> [Float] {
    var samples: [Float] = []
    try AudioFileDecoder(ffmpegSampleRate: 8000).decode(path: Fixtures.music(name).path) { buffer, _, _ in
      samples += buffer
    }
    return samples
  }

  static func excerpt(_ samples: [Float], from start: Double, seconds: Double) -> [Float] {
    Array(samples[Int(start * 8000)..<Int((start + seconds) * 8000)])
  }

  @Test("The catalog holds the three tracks with their durations and audible spans")
  func catalogContents() throws {
    let catalog = try Self.catalog()
    #expect(catalog.tracks.map(\.metadata.title) == Self.catalogFiles.map { Fixtures.musicTracks[$0]!.title })
    for track in catalog.tracks {
      #expect(abs(track.durationSeconds - 30) < 0.1)
      #expect(track.audibleStartSeconds < track.audibleEndSeconds)
      #expect(track.audibleEndSeconds <= track.durationSeconds)
      #expect(track.hashCount > 500)
    }
  }

  @Test(
    "An unmodified 10 s clip of each track is found, spanning the clip, at its offset and speed 1",
    arguments: catalogFiles)
  func plainClips(name: String) throws {
    let clip = Self.excerpt(try Self.decode(name), from: 12, seconds: 10)
    let run = try MatcherHarness.run(clip, catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    let play = try #require(run.sink.ended.first)
    #expect(play.track.metadata.title == Fixtures.musicTracks[name]!.title)
    #expect(play.startSeconds < 0.5)
    #expect(abs(play.endSeconds - 10) <= 0.5)
    #expect(abs(play.referenceOffsetSeconds - 12 - play.startSeconds) < 0.5)
    #expect(abs(play.speed - 1) <= 0.01)
  }

  @Test("12 s of b from 8 s, sped up 5 % by resampling, is found: right track, offset within 0.5 s, speed 1.05 ± 0.01")
  func resampledExcerpt() throws {
    let clip = SpeedChange.resample(Self.excerpt(try Self.decode("catalog-b.ogg"), from: 8, seconds: 12), speed: 1.05)
    let run = try MatcherHarness.run(clip, catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    let play = try #require(run.sink.ended.first)
    #expect(play.track.metadata.isrc == Fixtures.musicTracks["catalog-b.ogg"]!.isrc)
    // Where the play starts in the clip, the reference is at 8 s plus that much clip time at 1.05.
    #expect(abs(play.referenceOffsetSeconds - (8 + 1.05 * play.startSeconds)) <= 0.5)
    #expect(play.startSeconds < 1)
    #expect(abs(play.speed - 1.05) <= 0.01)
    #expect(play.pitchShifted)
  }

  @Test("12 s of b from 8 s, time-stretched 4 % by ffmpeg (atempo), is found at speed 1.04 ± 0.01 with pitch kept")
  func timeStretchedExcerpt() throws {
    let folder = try TemporaryDirectory()
    let wav = folder.file("stretched.wav")
    let result = try Subprocess.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-ss", "8", "-t", "12", "-i", Fixtures.music("catalog-b.ogg").path, "-af",
        "atempo=1.04", "-ac", "1", "-ar", "8000", "-c:a", "pcm_f32le", wav.path,
      ])
    try #require(result.status == 0, "\(result)")
    var clip: [Float] = []
    try AudioFileDecoder().decode(path: wav.path) { buffer, _, _ in clip += buffer }
    let clipSeconds = Double(clip.count) / 8000
    #expect(abs(clipSeconds - 12 / 1.04) < 0.1)
    let run = try MatcherHarness.run(clip, catalog: Self.catalog())
    #expect(run.sink.ended.count == 1)
    let play = try #require(run.sink.ended.first)
    #expect(play.track.metadata.title == Fixtures.musicTracks["catalog-b.ogg"]!.title)
    #expect(abs(play.referenceOffsetSeconds - (8 + 1.04 * play.startSeconds)) <= 0.5)
    #expect(abs(play.speed - 1.04) <= 0.01)
    #expect(!play.pitchShifted)
  }

  @Test(
    "12 s of a that start half a hop off the reference's frame grid keep over half the matches of 12 s on the grid"
  )
  func offGrid() throws {
    // A broadcast starts anywhere within a hop (256 samples) of the reference's frames. With whole-frame peak times a
    // half-hop shift kept about a third of the matches; refined peak times keep about two thirds.
    var wholeFrames = FingerprintParameters()
    wholeFrames.interpolatePeakTimes = false
    let legacy = try MatcherHarness.catalog(
      ofRecordings: [(try Self.decode("catalog-a.ogg"), "a")], parameters: wholeFrames)
    let a = try Self.decode("catalog-a.ogg")
    func matches(shiftSamples: Int, catalog: Catalog) throws -> Int {
      let start = 8 * 8000 + shiftSamples  // 8 s is on the grid: 250 hops
      let run = try MatcherHarness.run(Array(a[start..<(start + 12 * 8000)]), catalog: catalog)
      return try #require(run.sink.ended.first).matchCount
    }
    let onGrid = try matches(shiftSamples: 0, catalog: Self.catalog())
    let halfHop = try matches(shiftSamples: 128, catalog: Self.catalog())
    let legacyOnGrid = try matches(shiftSamples: 0, catalog: legacy)
    let legacyHalfHop = try matches(shiftSamples: 128, catalog: legacy)
    let kept = Double(halfHop) / Double(onGrid)
    let legacyKept = Double(legacyHalfHop) / Double(legacyOnGrid)
    print(
      "off grid: refined \(halfHop)/\(onGrid) = \(kept), whole frames \(legacyHalfHop)/\(legacyOnGrid) = \(legacyKept)")
    #expect(kept > 0.5, "refined times kept \(halfHop) of \(onGrid) matches")
    #expect(kept > legacyKept + 0.15, "whole frames kept \(legacyHalfHop) of \(legacyOnGrid)")
  }

  @Test("A segue (each track cut after 9 s, the next on the next sample) logs each play, each ending at its cut")
  func segue() throws {
    // The order puts every track after each other one: a song's line must not pick up stray matches from the next.
    let order = ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg", "catalog-a.ogg", "catalog-c.ogg", "catalog-b.ogg"]
    var audio: [Float] = []
    for name in order { audio += Self.excerpt(try Self.decode(name), from: 0, seconds: 9) }
    let run = try MatcherHarness.run(audio, catalog: Self.catalog())
    let plays = run.sink.ended.sorted { $0.startSeconds < $1.startSeconds }
    #expect(plays.map(\.track.metadata.title) == order.map { Fixtures.musicTracks[$0]!.title })
    for (index, play) in plays.enumerated() {
      let cut = Double(index + 1) * 9
      #expect(abs(play.startSeconds - (cut - 9)) <= 0.5, "play \(index) start")
      #expect(
        abs(play.endSeconds - cut) <= 1, "play \(index) of \(play.track.metadata.title) ends at \(play.endSeconds)")
    }
  }

  @Test(
    "A catalog that holds b twice, as it is and again as it is or 3 % faster, logs one play of each airing, never two",
    arguments: [(copySpeed: 1.0, airSpeed: 1.0), (1.03, 1.0), (1.03, 1.03)])
  func recordingHeldTwice(copySpeed: Double, airSpeed: Double) throws {
    let b = try Self.decode("catalog-b.ogg")
    let copy = copySpeed == 1 ? b : SpeedChange.resample(b, speed: copySpeed)
    let builder = CatalogBuilder(parameters: FingerprintParameters())
    for (key, samples) in [("b", b), ("b-copy", copy)] {
      let generator = SignatureGenerator(parameters: builder.parameters, purpose: .reference)
      try generator.append(samples, channels: 1, sampleRate: 8000)
      builder.add(
        signature: generator.signature(), key: key, sourcePath: key, metadata: TrackMetadata(title: key, artist: "a"))
    }
    let catalog = try builder.build()
    let air = SpeedChange.resample(Self.excerpt(b, from: 2, seconds: 25), speed: airSpeed)
    let run = try MatcherHarness.run(air, catalog: catalog)
    #expect(
      run.sink.ended.count == 1,
      "plays: \(run.sink.ended.map { "\($0.track.key) \($0.startSeconds)–\($0.endSeconds) s at \($0.speed)" })")
  }

  @Test("A clip of music that is not in the catalog (unknown.ogg) gives no play")
  func unknownClip() throws {
    let clip = Self.excerpt(try Self.decode("unknown.ogg"), from: 4, seconds: 14)
    let run = try MatcherHarness.run(clip, catalog: Self.catalog())
    #expect(run.sink.playEvents.isEmpty)
    #expect(!run.sink.noMatchTimes.isEmpty)
  }

  @Test(
    "corrupt.ogg and not-audio.ogg cannot be fingerprinted: an AudioError naming the file",
    arguments: ["corrupt.ogg", "not-audio.ogg"])
  func badFiles(name: String) {
    let path = Fixtures.music(name).path
    let error = #expect(throws: AudioError.self) {
      try ReferenceFingerprinter(parameters: FingerprintParameters()).signature(ofFileAt: path)
    }
    #expect(error?.description.contains(path) == true)
  }

  @Test("The catalog round-trips through its file; a flipped byte in any part fails the load with a checksum error")
  func catalogFile() throws {
    let catalog = try Self.catalog()
    let folder = try TemporaryDirectory()
    let url = folder.file("music.bmcat")
    try catalog.write(to: url)
    let loaded = try Catalog.load(from: url)
    #expect(loaded.tracks == catalog.tracks)
    #expect(loaded.info().hashCount == catalog.info().hashCount)
    let clip = Self.excerpt(try Self.decode("catalog-c.ogg"), from: 5, seconds: 8)
    #expect(try MatcherHarness.run(clip, catalog: loaded).sink.ended.map(\.track.key) == [catalog.tracks[2].key])

    let bytes = [UInt8](try Data(contentsOf: url))
    let layout = CatalogTests.Layout(bytes, catalog: catalog)
    let parts = [
      ("header", layout.header.lowerBound + layout.header.count / 3),
      ("track table", layout.trackTable.lowerBound + layout.trackTable.count / 2),
      ("directory", layout.directory.lowerBound + 40), ("postings", layout.postings.lowerBound + 1001),
      ("triplet index", layout.triplets.upperBound - 1), ("trailer", bytes.count - 4),
    ]
    for (part, position) in parts {
      var damaged = bytes
      damaged[position] = ~damaged[position]
      let damagedURL = folder.file("damaged-\(position).bmcat")
      try Data(damaged).write(to: damagedURL)
      let error = #expect(throws: FormatError.self, "\(part)") { try Catalog.load(from: damagedURL) }
      #expect(error?.description.contains("checksum") == true, "\(part) byte \(position)")
    }
  }
}
