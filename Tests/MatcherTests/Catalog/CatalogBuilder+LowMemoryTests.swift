import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

/// The catalog build in bounded memory (packed hashes, the index filled in place, the triplet index a run of tracks
/// at a time) against the build it replaced, which listed every entry: the same catalog, byte for byte.
@Suite("CatalogBuilder in bounded memory")
struct CatalogBuilderLowMemoryTests {
  /// Default parameters (19-bit hashes: directory slots hold several hashes at this size), and a narrow band with
  /// short intervals (15-bit hashes: each slot holds one hash).
  static let parameterSets: [FingerprintParameters] = {
    var narrow = FingerprintParameters()
    narrow.maxFrequencyHz = 500
    narrow.maxPairSemitones = 2
    return [FingerprintParameters(), narrow]
  }()

  /// Seeded random reference signatures: peaks in frame order in the parameters' band, and every fifth track a
  /// repeated short pattern, whose hashes recur often enough to be stop hashes.
  static func signatures(_ p: FingerprintParameters, count: Int, seed: UInt64) -> [Signature] {
    var generator = SeededGenerator(seed: seed)
    let binHz = Double(p.sampleRateHz) / Double(p.fftSizeSamples)
    let bins = Int((p.minFrequencyHz / binHz).rounded(.up))...Int((p.maxFrequencyHz / binHz).rounded(.down))
    return (0..<count).map { t in
      let frames = 600 + Int(generator.next() % 3_000)
      let pattern = (0..<12).map { _ in (Int32(generator.next() % 10), Float(Int.random(in: bins, using: &generator))) }
      var peaks: [Peak] = []
      for frame in 0..<Int32(frames) {
        if t % 5 == 4 {
          for (offset, bin) in pattern where offset == frame % 10 {
            peaks.append(Peak(frame: frame, bin: bin, strength: 1))
          }
        } else {
          for _ in 0..<Int(generator.next() % 3) {
            peaks.append(Peak(frame: frame, bin: Float(Int.random(in: bins, using: &generator)), strength: 1))
          }
        }
      }
      peaks.sort { $0.frame != $1.frame ? $0.frame < $1.frame : $0.bin < $1.bin }
      let samples = (frames - 1) * p.hopSizeSamples + p.fftSizeSamples
      return Signature(
        parameters: p, sampleCount: samples, peaks: peaks, audibleStartSeconds: 0,
        audibleEndSeconds: Double(samples) / Double(p.sampleRateHz))
    }
  }

  /// The build as it was before it ran in bounded memory: every entry listed, the stop hashes filtered out of a copy,
  /// the index built from the list, the triplet index derived from every pair at once.
  static func listedBuild(_ built: Catalog, signatures: [Signature]) -> Catalog {
    let hasher = PairHasher(parameters: built.parameters)
    var entries = [(hash: UInt32, position: UInt32)]()
    for (t, s) in zip(built.tracks, signatures) {
      for h in hasher.referenceHashes(of: s.peaks) { entries.append((h.hash, t.globalStartFrame + h.frame)) }
    }
    let layout = HashLayout(built.parameters)
    let (kept, cap) = CatalogBuilder.removingStopHashes(entries, hashBits: layout.totalBits)
    let index = CatalogIndex.build(hashBits: layout.totalBits, entries: kept)
    return Catalog(
      parameters: built.parameters, tracks: built.tracks, index: index, stopHashCap: cap,
      triplets: TripletIndex.derive(from: index, layout: layout))
  }

  static func arrays(_ index: CatalogIndex) -> [[UInt32]] {
    [
      Array(index.directory), Array(index.postings),
      [index.hashBits, index.directoryBits, index.positionBits].map(UInt32.init),
    ]
  }

  @Test("A seeded random catalog is built to the same bytes as by listing every entry", arguments: [0, 1])
  func sameBytesAsListedBuild(parameterSet: Int) throws {
    let p = Self.parameterSets[parameterSet]
    let signatures = Self.signatures(p, count: 40 + 40 * parameterSet, seed: 20 + UInt64(parameterSet))
    let builder = CatalogBuilder(parameters: p)
    for (i, s) in signatures.enumerated() {
      builder.add(signature: s, key: "track-\(i)", sourcePath: "random/\(i)", metadata: TrackMetadata(title: "\(i)"))
    }
    let built = try builder.build()
    let listed = Self.listedBuild(built, signatures: signatures)
    #expect(listed.stopHashCap > 12, "the repeated patterns make stop hashes")
    #expect(
      built.index.postings.count
        < signatures.reduce(0) { $0 + PairHasher(parameters: p).referenceHashes(of: $1.peaks).count })
    #expect(built.stopHashCap == listed.stopHashCap)
    #expect(Self.arrays(built.index) == Self.arrays(listed.index))
    #expect(try built.encoded() == listed.encoded())
    // Small runs: many runs of tracks, the same triplet index.
    let layout = HashLayout(p)
    for runPairs in [1, 500, 5_000] {
      let runs = TripletIndex.derive(from: built.index, tracks: built.tracks, layout: layout, runPairs: runPairs)
      #expect(Self.arrays(runs.index) == Self.arrays(try #require(listed.triplets).index), "runs of \(runPairs) pairs")
    }
    if parameterSet == 1 { #expect(built.index.residualBits == 0) } else { #expect(built.index.residualBits > 0) }
  }

  @Test("An index whose slots are not in frame order gives the same triplet index, in one run")
  func slotsOutOfFrameOrder() {
    let layout = HashLayout(FingerprintParameters())
    var generator = SeededGenerator(seed: 5)
    var tracks: [CatalogTrack] = []
    var entries = [(hash: UInt32, position: UInt32)]()
    var start: UInt32 = 0
    for t in 0..<20 {
      let frames = UInt32(500 + generator.next() % 500)
      tracks.append(
        CatalogTrack(
          key: "\(t)", sourcePath: "", metadata: TrackMetadata(title: "\(t)"), durationSeconds: 1,
          audibleStartSeconds: 0, audibleEndSeconds: 1, loudEndSeconds: 1, globalStartFrame: start, frameCount: frames,
          hashCount: 300,
          addedAt: Date(timeIntervalSince1970: 0)))
      // A track's hashes out of frame order, as a catalog edit recovers them: by hash, from 40 values.
      var own = (0..<300).map { _ in
        (
          hash: UInt32(generator.next() % 40) << 8 | UInt32(1 + generator.next() % 40),
          position: start + UInt32(generator.next() % UInt64(frames))
        )
      }
      own.sort { $0.hash < $1.hash }
      entries += own
      start += frames + Catalog.gapFrames
    }
    let index = CatalogIndex.build(hashBits: layout.totalBits, entries: entries)
    let whole = TripletIndex.derive(from: index, layout: layout)
    let runs = TripletIndex.derive(from: index, tracks: tracks, layout: layout, runPairs: 100)
    #expect(whole.index.postings.count > 0)
    #expect(Self.arrays(runs.index) == Self.arrays(whole.index))
  }

  @Test("A catalog whose frame axis does not fit 32 bits is refused with the figures, not wrapped")
  func refusesAxisTooLong() throws {
    let p = FingerprintParameters()
    let builder = CatalogBuilder(parameters: p)
    // Two silent tracks of 2^31 + 1 frames each (about 19,000 hours apiece): together past 2^32 frames.
    let samples = (1 << 31) * p.hopSizeSamples + p.fftSizeSamples
    for i in 0..<2 {
      builder.add(
        signature: Signature(
          parameters: p, sampleCount: samples, peaks: [], audibleStartSeconds: 0, audibleEndSeconds: 0),
        key: "long-\(i)", sourcePath: "long/\(i)", metadata: TrackMetadata(title: "long \(i)"))
    }
    do {
      _ = try builder.build()
      Issue.record("a catalog past the frame axis was built")
    } catch {
      #expect(error.reason.contains("too large: 2 tracks exceed the index's 32-bit frame axis"))
      #expect(error.reason.contains("split the tracks into two catalogs"))
    }
  }
}
