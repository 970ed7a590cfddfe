import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher at catalog scale")
struct StreamMatcherScaleTests {
  /// A catalog of `count` tracks whose peaks are random (uniform in time and over the fingerprint's band), so that
  /// their hashes are spread like a large catalog's: hundreds of postings per common hash.
  static func randomCatalog(tracks count: Int, seconds: Double, seed: UInt64) throws -> Catalog {
    let parameters = FingerprintParameters()
    var generator = SeededGenerator(seed: seed)
    let builder = CatalogBuilder(parameters: parameters)
    let sampleCount = Int(seconds) * parameters.sampleRateHz
    let frames = Int32((sampleCount - parameters.fftSizeSamples) / parameters.hopSizeSamples)
    let binHz = Double(parameters.sampleRateHz) / Double(parameters.fftSizeSamples)
    let lowBin = Float(parameters.minFrequencyHz / binHz) + 1
    let highBin = Float(parameters.maxFrequencyHz / binHz) - 1
    let peaksPerSecond = 12.0
    for t in 0..<count {
      var peaks: [Peak] = []
      for _ in 0..<Int(seconds * peaksPerSecond) {
        let frame = Int32(generator.next() % UInt64(frames))
        let bin = lowBin + (highBin - lowBin) * Float(generator.next() % 1_000_000) / 1_000_000
        let offset = Float(generator.next() % 1000) / 1000 - 0.5
        peaks.append(Peak(frame: frame, bin: bin, strength: 20, frameOffset: offset))
      }
      peaks.sort { ($0.frame, $0.bin) < ($1.frame, $1.bin) }
      let signature = Signature(
        parameters: parameters, sampleCount: sampleCount, peaks: peaks, audibleStartSeconds: 0,
        audibleEndSeconds: seconds)
      builder.add(
        signature: signature, key: "random-\(t)", sourcePath: "random/\(t)", metadata: TrackMetadata(title: "R\(t)"))
    }
    return try builder.build()
  }

  /// 3,000 random tracks of a minute, seeds 12 and 13: built once and shared by the tests (read only), as each build
  /// was most of this suite's time in a debug build.
  static let threeThousandTracks = Result { try randomCatalog(tracks: 3000, seconds: 60, seed: 12) }
  static let threeThousandOtherTracks = Result { try randomCatalog(tracks: 3000, seconds: 60, seed: 13) }

  /// 3,000 random tracks of a minute (`threeThousandOtherTracks`) and `copies` copies of `song`, keyed `song-0`,
  /// `song-1`…
  static func randomCatalog(withCopiesOf song: SyntheticSong, copies: Int) throws -> Catalog {
    let builder = CatalogBuilder(editing: try threeThousandOtherTracks.get())
    let signature = try MatcherHarness.referenceSignature(of: song.render())
    for c in 0..<copies {
      builder.add(
        signature: signature, key: "song-\(c)", sourcePath: "song-\(c)", metadata: TrackMetadata(title: "Song"))
    }
    return try builder.build()
  }

  /// The plays a matcher of `catalog` starts on `air` (8 kHz mono), with triplet hits confirmed or not, and the stop-key
  /// cap of its triplet probes.
  static func startedPlays(
    _ air: [Float], catalog: Catalog, confirmingTripletHits: Bool, tripletKeyHitCap: Int = .max
  ) throws -> [MatchedPlay] {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: catalog, sink: sink)
    matcher.confirmsTripletHits = confirmingTripletHits
    matcher.tripletKeyHitCap = tripletKeyHitCap
    try air.withUnsafeBufferPointer { all throws(AudioError) in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + 4000)
        try matcher.append(UnsafeBufferPointer(rebasing: all[start..<end]), sampleRate: 8000)
        start = end
      }
    }
    matcher.flush()
    return sink.started
  }

  @Test(
    "Random audio against a catalog of thousands of random tracks logs no play, with triplet hits confirmed or not",
    arguments: [false, true])
  func randomAudioAgainstThousandsOfTracksLogsNothing(confirmingTripletHits: Bool) throws {
    let catalog = try Self.threeThousandTracks.get()
    let postingsPerHash = Double(catalog.index.postings.count) / Double(1 << HashLayout(catalog.parameters).totalBits)
    // Common hashes have more postings than a match may vote with alone: the filter in front of the search is used.
    #expect(Double(catalog.stopHashCap) > Double(MatcherTuning.maxPostingsSearchedAlone))
    #expect(postingsPerHash > 4, "\(postingsPerHash) postings per hash")
    // Two minutes of songs that are not in the catalog, and one of white noise.
    var air = SyntheticSong(seed: 901, seconds: 60).render() + SyntheticSong(seed: 902, seconds: 60).render()
    var generator = SeededGenerator(seed: 903)
    for _ in 0..<(60 * 8000) { air.append(0.5 * (Float(generator.next() % 65_536) / 65_536 - 0.5)) }
    let started = try Self.startedPlays(air, catalog: catalog, confirmingTripletHits: confirmingTripletHits)
    #expect(started.isEmpty, "false plays: \(started.map(\.track.key))")
  }

  @Test(
    "A catalog song among thousands of random tracks is found, with its start, with triplet hits confirmed or not",
    arguments: [false, true])
  func catalogSongAmongThousandsOfTracksIsFound(confirmingTripletHits: Bool) throws {
    let song = SyntheticSong(seed: 904, seconds: 60)
    let catalog = try Self.randomCatalog(withCopiesOf: song, copies: 1)
    let air = [Float](repeating: 0, count: 10 * 8000) + song.render()
    let started = try Self.startedPlays(air, catalog: catalog, confirmingTripletHits: confirmingTripletHits)
    #expect(started.map(\.track.key) == ["song-0"])
    if let play = started.first { #expect(abs(play.startSeconds - 10) < 0.5) }
  }

  @Test("Thousands of random tracks have few triplet postings per key: hits go unconfirmed, no key is a stop key")
  func thousandsOfRandomTracksGoUnconfirmed() throws {
    let catalog = try Self.threeThousandTracks.get()
    let triplets = try #require(catalog.triplets)
    #expect(!MatcherTuning.confirmsHits(of: triplets))
    let matcher = StreamMatcher(catalog: catalog, sink: nil)
    #expect(!matcher.confirmsTripletHits)
    #expect(matcher.tripletKeyHitCap == .max)
  }

  @Test("From more than half a posting per key on, hits are confirmed and a probe of more than 12 is a stop key")
  func tripletHitsAreConfirmedAndCappedFromHalfAPostingPerKey() {
    func triplets(postings: Int) -> TripletIndex {
      TripletIndex(
        index: CatalogIndex.build(hashBits: 8, entries: (0..<postings).map { (UInt32($0 % 256), UInt32($0)) }))
    }
    #expect(!MatcherTuning.confirmsHits(of: triplets(postings: 128)))
    #expect(MatcherTuning.tripletKeyHitCap(of: triplets(postings: 128)) == .max)
    #expect(MatcherTuning.confirmsHits(of: triplets(postings: 129)))
    #expect(MatcherTuning.tripletKeyHitCap(of: triplets(postings: 129)) == 12)
  }

  @Test(
    "A recording held more times than a probe may have hits is not found through the triplet index; held as many, it is",
    arguments: [false, true])
  func stopKeysAreNotSearched(confirmingTripletHits: Bool) throws {
    let song = SyntheticSong(seed: 905, seconds: 60)
    // More copies than a hash may have postings and still vote alone: the song is found only through the triplet
    // index, where each of its keys has one posting per copy.
    let copies = MatcherTuning.maxPostingsSearchedAlone + 1
    let catalog = try Self.randomCatalog(withCopiesOf: song, copies: copies)
    #expect(catalog.stopHashCap > copies + 4, "the song's hashes are kept")
    let air = [Float](repeating: 0, count: 10 * 8000) + song.render()
    let stopped = try Self.startedPlays(
      air, catalog: catalog, confirmingTripletHits: confirmingTripletHits, tripletKeyHitCap: copies - 1)
    #expect(stopped.count == 0)
    let searched = try Self.startedPlays(
      air, catalog: catalog, confirmingTripletHits: confirmingTripletHits, tripletKeyHitCap: copies)
    #expect(!searched.isEmpty && searched.allSatisfy { $0.track.key.hasPrefix("song-") })
    if let play = searched.first { #expect(abs(play.startSeconds - 10) < 0.5) }
  }
}
