import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

/// Regression tests for bugs found while writing the suites: each names the bug it guards against.
@Suite("Regressions (Matcher)")
struct RegressionMatcherTests {
  @Test("Catalog.write over an existing catalog replaces it, and leaves no temporary file behind")
  func writeOverExistingCatalog() throws {
    let songs = (31...33).map { SyntheticSong(seed: UInt64($0), seconds: 10) }
    let folder = try TemporaryDirectory()
    let url = folder.file("songs.bmcat")
    try MatcherHarness.catalog(of: Array(songs.prefix(2))).write(to: url)
    try MatcherHarness.catalog(of: songs).write(to: url)
    #expect(try Catalog.load(from: url).tracks.count == 3)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["songs.bmcat"])
  }

  @Test("A failed write never destroys the catalog that was there")
  func failedWriteKeepsTheOldCatalog() throws {
    let songs = (31...32).map { SyntheticSong(seed: UInt64($0), seconds: 10) }
    let folder = try TemporaryDirectory()
    let url = folder.file("songs.bmcat")
    let catalog = try MatcherHarness.catalog(of: songs)
    try catalog.write(to: url)
    try? catalog.write(to: url)
    #expect(FileManager.default.fileExists(atPath: url.path))
  }

  @Test(
    "Editing a catalog and building it again keeps every hash, whatever the catalog's mean postings per hash"
  )
  func editingKeepsEveryHash() throws {
    // Pairs of peaks 100 frames apart make one hash each: H1 1000 times, H2 100 times, 40 other hashes 10 times.
    // First build (mean 36 postings per hash): H1 is a stop hash, H2 is not. Rebuilt from that catalog, the mean
    // is 12 and the cap, a multiple of it, falls below 100: H2 goes too. (Holds for a cap of 3 to 8 × the mean.)
    let p = FingerprintParameters()
    var peaks: [Peak] = []
    var frame: Int32 = 0
    func pair(_ anchorBin: Float, _ targetBin: Float, _ distance: Int32) {
      peaks.append(Peak(frame: frame, bin: anchorBin, strength: 10))
      peaks.append(Peak(frame: frame + distance, bin: targetBin, strength: 10))
      frame += 100
    }
    for _ in 0..<1000 { pair(200, 220, 5) }
    for _ in 0..<100 { pair(300, 330, 5) }
    for _ in 0..<10 { for d in 1...40 { pair(100, 110, Int32(d)) } }
    let signature = Signature(
      parameters: p, sampleCount: Int(frame) * p.hopSizeSamples + p.fftSizeSamples, peaks: peaks,
      audibleStartSeconds: 0, audibleEndSeconds: 1)
    let builder = CatalogBuilder()
    builder.add(
      signature: signature, key: "k", sourcePath: "k", metadata: TrackMetadata(title: "K"))
    let catalog = try builder.build()
    #expect(catalog.info().hashCount == 500)
    let rebuilt = try CatalogBuilder(editing: catalog).build()
    #expect(rebuilt.info().hashCount == catalog.info().hashCount)
  }

  @Test(
    "Dead air after a song ends the play after maxGapSeconds, and the state goes back to prerecording"
  )
  func deadAirEndsThePlay() throws {
    let songs = (1...3).map { SyntheticSong(seed: UInt64($0), seconds: 15) }
    let catalog = try MatcherHarness.catalog(of: songs)
    var settings = MatcherSettings()
    settings.maxGapSeconds = 3
    let run = try MatcherHarness.run(
      songs[0].render() + Signals.silence(seconds: 10), catalog: catalog, settings: settings,
      flush: false)
    #expect(run.sink.ended.count == 1)
    #expect(run.states.last?.state == .prerecording)
  }

  @Test("Silence is reported as no match every noMatchIntervalSeconds")
  func silenceIsReportedAsNoMatch() throws {
    let catalog = try MatcherHarness.catalog(of: [SyntheticSong(seed: 1, seconds: 15)])
    let run = try MatcherHarness.run(Signals.silence(seconds: 25), catalog: catalog)
    #expect(run.sink.noMatchTimes.count == 2)
  }
}

@Suite("Regressions (StreamMatcher speed)")
struct RegressionSpeedTests {
  static let songs = (1...4).map { SyntheticSong(seed: UInt64($0), seconds: 15) }

  @Test("A song played at its own speed is reported at speed 1 in every event, from playStarted on")
  func unmodifiedSongHasSpeedOne() throws {
    let catalog = try MatcherHarness.catalog(of: Self.songs)
    for song in Self.songs {
      let run = try MatcherHarness.run(
        SyntheticSong(seed: 900, seconds: 5).render() + song.render(), catalog: catalog)
      let speeds = run.sink.playEvents.compactMap { $0.play?.speed }
      #expect(!speeds.isEmpty)
      #expect(speeds.allSatisfy { abs($0 - 1) <= 0.01 }, "song \(song.seed): \(speeds)")
    }
  }
}

@Suite("Regressions (real music)", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RegressionMusicTests {
  @Test(
    "An unmodified 10 s clip of a catalog track is reported at speed 1 from its first event (playStarted)",
    arguments: ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"], [0.0, 5, 12, 19])
  func unmodifiedClip(name: String, from: Double) throws {
    let clip = MusicFixtureTests.excerpt(
      try MusicFixtureTests.decode(name), from: from, seconds: 10)
    let run = try MatcherHarness.run(clip, catalog: MusicFixtureTests.catalog())
    let startedAt = try #require(run.sink.started.first)
    #expect(abs(startedAt.speed - 1) <= 0.01, "speed when started \(startedAt.speed)")
  }
}

/// Keeps the peaks a `PeakExtractor` emits.
private final class PlateauCapture: PeakConsumer {
  var peaks: [Peak] = []
  func consume(peaks: ArraySlice<Peak>, throughFrame: Int) { self.peaks += peaks }
  func flush() {}
}

@Suite("Regressions (PeakExtractor)")
struct RegressionPeakExtractorTests {
  @Test(
    "Equal powers in neighbouring bins (a plateau in frequency) make one peak, as a plateau in time does"
  )
  func plateauInFrequency() {
    let capture = PlateauCapture()
    let extractor = PeakExtractor(
      parameters: FingerprintParameters(), firstBin: 20, binCount: 120, peaksPerBlock: 100,
      consumer: capture)
    var power = [Float](repeating: 1e-10, count: 120)
    for frame in 0..<40 {
      for k in 0..<120 { power[k] = frame == 20 && (40...60).contains(k) ? 1e-3 : 1e-10 }
      power.withUnsafeBufferPointer { extractor.consume(frame: frame, power: $0) }
    }
    extractor.flush()
    #expect(capture.peaks.count == 1, "\(capture.peaks.map(\.bin))")
  }
}
