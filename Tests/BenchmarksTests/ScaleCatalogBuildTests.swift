import Foundation
import TestSupport
import Testing

@testable import Benchmarks
@testable import Matcher

/// The catalog-scale benchmark's catalog builder (bench/catalog_scale.py) on a few fixture files, through the same
/// code path as the benchmark: so that the benchmark cannot rot unnoticed.
@Suite("ScaleCatalogBuild")
struct ScaleCatalogBuildTests {
  @Test("variants start with the original and its reversal, then speed factors outside the matcher's search")
  func variantSequence() {
    let v = ScaleVariant.sequence(count: 41)
    #expect(v.count == 41)
    #expect(v[0] == ScaleVariant.original)
    #expect(v[1] == ScaleVariant(speedFactor: 1, reversed: true))
    #expect(Set(v).count == v.count)
    for copy in v.dropFirst(2) {
      #expect(ScaleVariant.speedFactorRange.contains(copy.speedFactor))
      #expect(!ScaleVariant.excludedSpeedFactors.contains(copy.speedFactor), "\(copy)")
    }
    // The first copies spread over the range: some slower, some faster.
    #expect(v[2..<8].contains { $0.speedFactor < 0.93 } && v[2..<8].contains { $0.speedFactor > 1.075 })
  }

  @Test("each size's plan is a prefix of the next, with the audio-level variants first")
  func planPrefixes() throws {
    let sources = [ScaleSource(path: "/a", durationSeconds: 1800), ScaleSource(path: "/b", durationSeconds: 1800)]
    let plan = try ScaleCatalogPlan(sources: sources, baseHours: 1, sizesHours: [0, 3, 10], audioLevelHours: 2)
    #expect(plan.entryCounts[0] == 0)
    let small = try #require(plan.entryCounts[3])
    let large = try #require(plan.entryCounts[10])
    #expect(small < large && large == plan.entries.count)
    #expect(plan.entries[small - 1].cumulativeHours >= 2 && plan.entries[large - 1].cumulativeHours >= 9)
    #expect(plan.entries[large - 2].cumulativeHours < 9)
    // Each round of copies (1 h at speed 1) fits the 2 h audio budget twice at most.
    #expect(plan.audioLevelVariantCount == 2 || plan.audioLevelVariantCount == 1)
    #expect(plan.entries.map(\.variant) == plan.entries.map(\.variant).sorted())
    #expect(throws: ScaleCatalogPlan.PlanError.self) {
      try ScaleCatalogPlan(sources: [], baseHours: 1, sizesHours: [5], audioLevelHours: 2)
    }
  }

  @Test("a peak-level copy has most of the peaks that the audio-level copy at the same speed has")
  func peakLevelCopyAgreesWithAudio() throws {
    let parameters = FingerprintParameters()
    let (samples, rate) = try ScaleCatalogBuild.decodeMono(Fixtures.music("catalog-b.ogg").path, rateHz: 16_000)
    func audioLevel(_ factor: Double, reversed: Bool) throws -> Signature {
      let generator = SignatureGenerator(parameters: parameters, purpose: .reference)
      try generator.append(reversed ? Array(samples.reversed()) : samples, sampleRate: rate * factor)
      return generator.signature()
    }
    let original = try audioLevel(1, reversed: false)
    for (factor, reversed) in [(1.15, false), (0.87, true)] {
      let fromAudio = try audioLevel(factor, reversed: reversed)
      let derived = PeakLevelCopy.signature(of: original, speedFactor: factor, reversed: reversed)
      #expect(abs(derived.durationSeconds - fromAudio.durationSeconds) < 0.05)
      // Peaks per second stay those of a reference signature.
      let density = Double(derived.peaks.count) / Double(fromAudio.peaks.count)
      #expect(density > 0.75 && density < 1.1, "peak count \(derived.peaks.count) vs \(fromAudio.peaks.count)")
      #expect(derived.peaks.map(\.frame) == derived.peaks.map(\.frame).sorted())
      let shared = Self.fractionFound(derived.peaks, in: fromAudio.peaks)
      #expect(shared > 0.5, "only \(Int(shared * 100)) % of the derived peaks at ×\(factor) are in the audio's")
      // The other way round (bins divided instead of multiplied) would share almost nothing.
      let wrong = PeakLevelCopy.signature(of: original, speedFactor: 1 / factor, reversed: reversed)
      #expect(Self.fractionFound(wrong.peaks, in: fromAudio.peaks) < shared / 3)
    }
  }

  @Test("builds every size from fixture music, through the benchmark's code path, with sane figures")
  func buildsSizes() throws {
    let folder = try TemporaryDirectory()
    let music = folder.url.appendingPathComponent("music", isDirectory: true)
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    for name in ["catalog-b.ogg", "unknown.ogg", "not-audio.ogg"] {
      try FileManager.default.copyItem(at: Fixtures.music(name), to: music.appendingPathComponent(name))
    }
    let csv = folder.url.appendingPathComponent("tracks.csv")
    try """
    track_id,title,artist,album,isrc,duration_s,path
    D001,"Armygeddon, live",Muldjord,,ZZBMF2600001,30.0,\(Fixtures.music("catalog-a.ogg").path)

    """.write(to: csv, atomically: true, encoding: .utf8)
    let base = try ScaleCatalogCommand.baseTracks(csv: csv)
    #expect(base.count == 1 && base[0].metadata.title == "Armygeddon, live")
    let sources = try ScaleCatalogCommand.musicSources(in: music.path, minSeconds: 5)
    #expect(sources.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["catalog-b.ogg", "unknown.ogg"])

    // Base 30 s; a round of distractors 50 s; audio-level budget 108 s: the original and its reversal.
    let out = folder.url.appendingPathComponent("catalogs", isDirectory: true)
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let build = ScaleCatalogBuild(
      baseTracks: base, sources: sources, sizesHours: [0.08, 0, 0.04], audioLevelHours: 0.03, outputFolder: out)
    let reports = try build.run { _ in }
    #expect(reports.map(\.sizeHours) == [0, 0.04, 0.08])
    for r in reports {
      let catalog = try Catalog.load(from: URL(fileURLWithPath: r.catalogPath))
      #expect(catalog.tracks.count == r.tracks && r.tracks == 1 + r.distractorTracks)
      #expect(r.hours >= r.sizeHours && r.hours < max(r.sizeHours, 30 / 3600) + 40 / 3600)
      #expect(r.hashCount > 0 && r.indexBytes > 0 && r.fileBytes > r.indexBytes)
      #expect(r.baseTracks == 1 && r.skippedFiles.isEmpty)
      let dev = try #require(catalog.tracks.first { $0.metadata.isrc == "ZZBMF2600001" })
      #expect(dev.metadata.title == "Armygeddon, live")
      #expect(
        catalog.tracks.filter { $0.metadata.album == ScaleCatalogBuild.distractorAlbum }.count == r.distractorTracks)
      #expect(Set(catalog.tracks.map(\.key)).count == catalog.tracks.count)
    }
    #expect(reports[0].distractorTracks == 0)
    // 0.04 h: 114 s of distractors = both files as they are and reversed (100 s), and one peak-level copy.
    #expect(reports[1].audioLevelCopies == 4 && reports[1].peakLevelCopies == 1)
    #expect(reports[2].audioLevelCopies == 4 && reports[2].peakLevelCopies > 1)
    #expect(reports[2].hashCount > reports[1].hashCount && reports[1].hashCount > reports[0].hashCount)
    // 30 s of base and 100 s of audio-level copies were fingerprinted, in measurable CPU time.
    #expect(abs(reports[2].importAudioSeconds - 130) < 2)
    #expect(reports[2].importCPUSeconds > 0 && reports[2].maxResidentMB > 0)
  }

  /// The fraction of `peaks` with a peak of `reference` within a frame and 3 % of frequency.
  static func fractionFound(_ peaks: [Peak], in reference: [Peak]) -> Double {
    guard !peaks.isEmpty else { return 0 }
    var byFrame: [Int32: [Peak]] = [:]
    for p in reference { byFrame[p.frame, default: []].append(p) }
    let found = peaks.filter { p in
      (p.frame - 1...p.frame + 1).contains { f in
        byFrame[f, default: []].contains { abs($0.bin - p.bin) <= 0.03 * p.bin }
      }
    }
    return Double(found.count) / Double(peaks.count)
  }
}
