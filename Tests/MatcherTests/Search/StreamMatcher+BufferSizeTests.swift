import Foundation
import TestSupport
import Testing

@testable import Matcher

/// The matcher fed the same audio in buffers of random sizes (a JACK period, a network read, a file chunk: the worker
/// passes on whatever the input had) must log the same plays as fed in even buffers: the search runs on whole hops,
/// and what a buffer leaves over waits for the next one.
@Suite("StreamMatcher fed random buffer sizes", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct StreamMatcherBufferSizeTests {
  /// Unknown music, then b, a segue into a, unknown music again: plays that start, end at a cut and end in silence.
  static let audio = Result { () throws -> [Float] in
    func excerpt(_ name: String, from start: Double, seconds: Double) throws -> [Float] {
      MusicFixtureTests.excerpt(try MusicFixtureTests.decode(name), from: start, seconds: seconds)
    }
    return try excerpt("unknown.ogg", from: 0, seconds: 6) + excerpt("catalog-b.ogg", from: 4, seconds: 14)
      + excerpt("catalog-a.ogg", from: 0, seconds: 12) + excerpt("unknown.ogg", from: 10, seconds: 6)
      + [Float](repeating: 0, count: 8000 * 3)
  }

  /// What a play is in the log: which item, when, where in the item, how fast, how sure, on how many matches.
  struct LoggedPlay: Equatable, CustomStringConvertible {
    var title: String
    var startSeconds: Double
    var endSeconds: Double
    var referenceOffsetSeconds: Double
    var speed: Double
    var confidence: Double
    var matchCount: Int

    init(_ play: MatchedPlay) {
      title = play.track.metadata.title
      startSeconds = play.startSeconds
      endSeconds = play.endSeconds
      referenceOffsetSeconds = play.referenceOffsetSeconds
      speed = play.speed
      confidence = play.confidence
      matchCount = play.matchCount
    }

    var description: String {
      "\(title) \(startSeconds)–\(endSeconds) s, offset \(referenceOffsetSeconds), speed \(speed), "
        + "confidence \(confidence), \(matchCount) matches"
    }
  }

  /// Feeds `samples` in buffers of the sizes `nextSize` gives, then flushes; returns the plays as they ended and the
  /// plays withdrawn.
  static func plays(
    _ samples: [Float], catalog: Catalog, nextSize: () -> Int
  ) throws -> (ended: [LoggedPlay], withdrawn: [String]) {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: catalog, settings: MatcherSettings(), sink: sink)
    try samples.withUnsafeBufferPointer { all throws(AudioError) in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + nextSize())
        try matcher.append(UnsafeBufferPointer(rebasing: all[start..<end]), channels: 1, sampleRate: 8000)
        start = end
      }
    }
    matcher.flush()
    let withdrawn = sink.events.compactMap { event -> String? in
      if case .playRetracted(let play) = event { return play.track.metadata.title }
      return nil
    }
    return (sink.ended.map(LoggedPlay.init), withdrawn)
  }

  @Test("Random buffer sizes, from a single frame to several seconds, log exactly the plays even buffers log")
  func randomBufferSizes() throws {
    let audio = try Self.audio.get()
    let catalog = try MusicFixtureTests.catalog()
    let even = try Self.plays(audio, catalog: catalog) { 4000 }
    try #require(even.ended.map(\.title) == ["Chaos God", "Armygeddon"], "the audio holds two plays: \(even.ended)")
    let seed = PropertyCheck.seed
    for index in 0..<PropertyCheck.cases(6) {
      var random = PropertyCheck.generator(case: index, seed: seed)
      // Sizes spread evenly over their logarithm (1 frame to 4 s), so that small and odd ones are common.
      let largest = [64.0, 4096, 32_000].randomElement(using: &random)!
      let run = try Self.plays(audio, catalog: catalog) {
        Int(pow(largest, Double.random(in: 0...1, using: &random)).rounded())
      }
      #expect(run.ended == even.ended, "\(PropertyCheck.origin(case: index, seed: seed)), largest \(largest)")
      #expect(run.withdrawn == even.withdrawn, "\(PropertyCheck.origin(case: index, seed: seed))")
    }
  }
}
