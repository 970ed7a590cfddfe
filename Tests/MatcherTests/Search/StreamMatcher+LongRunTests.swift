import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher on a stream that has run for days")
struct StreamMatcherLongRunTests {
  static let parameters = FingerprintParameters()
  static let songs = (41...43).map { SyntheticSong(seed: UInt64($0), seconds: 20) }

  /// The query peaks of `samples` (8 kHz mono), as a stream matcher's front end finds them.
  static func queryPeaks(of samples: [Float]) throws -> Signature {
    let generator = SignatureGenerator(parameters: parameters, purpose: .query)
    try generator.append(samples, sampleRate: 8000)
    return generator.signature()
  }

  /// The plays a matcher of `catalog` logs from `query`'s peaks, their frames moved `laterFrames` on (a stream that
  /// started that long before this air), fed a block at a time: what each play found, without its stream times.
  static func plays(_ query: Signature, catalog: Catalog, laterFrames: Int) -> [String] {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: catalog, sink: sink)
    let blockFrames = Int32(parameters.peakBlockFrames)
    var block: [Peak] = []
    for peak in query.peaks {
      var moved = peak
      moved.frame += Int32(laterFrames)
      if let first = block.first, first.frame / blockFrames != moved.frame / blockFrames {
        matcher.consume(peaks: block[...], throughFrame: Int(first.frame / blockFrames * blockFrames + blockFrames - 1))
        block.removeAll()
      }
      block.append(moved)
    }
    matcher.consume(peaks: block[...], throughFrame: query.frameCount - 1 + laterFrames)
    matcher.flush()
    return sink.ended.map {
      "\($0.track.key) offset \(String(format: "%.3f", $0.referenceOffsetSeconds)) s, speed "
        + "\(String(format: "%.4f", $0.speed)), \($0.matchCount) matches"
    }
  }

  /// Up to 29 days: a monitor's channel starts its matcher afresh after a week of unbroken audio at a quiet moment,
  /// and after four weeks in any case (`ChannelPipeline.forcedRestartSeconds`).
  @Test(
    "A song hours or weeks into a stream finds the same matches as at the stream's start: no peak's place between frames is lost",
    arguments: [9, 50, 24 * 7, 24 * 29] as [Double])
  func sameMatchesLater(hours: Double) throws {
    let catalog = try MatcherHarness.catalog(of: Self.songs)
    let air =
      SyntheticSong(seed: 900, seconds: 5).render() + Self.songs[1].render()
      + SyntheticSong(seed: 901, seconds: 5).render()
    let query = try Self.queryPeaks(of: air)
    let atStart = Self.plays(query, catalog: catalog, laterFrames: 0)
    #expect(atStart.count == 1 && atStart.first?.hasPrefix(MatcherHarness.key(of: Self.songs[1])) == true)
    let laterFrames = Int(hours * 3600 * Self.parameters.framesPerSecond)
    #expect(Self.plays(query, catalog: catalog, laterFrames: laterFrames) == atStart)
  }
}
