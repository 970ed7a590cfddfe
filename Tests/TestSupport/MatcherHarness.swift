import Common
import Foundation
import Matcher

/// Short ways to build catalogs and run stream matchers in tests.
public enum MatcherHarness {
  /// The reference signature of mono samples.
  public static func referenceSignature(
    of samples: [Float], sampleRate: Double = 8000, parameters: FingerprintParameters = FingerprintParameters()
  ) throws -> Signature {
    let generator = SignatureGenerator(parameters: parameters, purpose: .reference)
    try generator.append(samples, sampleRate: sampleRate)
    return generator.signature()
  }

  /// The key and metadata a synthetic song gets in a catalog made by `catalog(of:)`.
  public static func key(of song: SyntheticSong) -> String { "song-\(song.seed)" }
  public static func title(of song: SyntheticSong) -> String { "Song \(song.seed)" }

  /// A catalog of synthetic songs, rendered at 8 kHz, in the given order.
  public static func catalog(
    of songs: [SyntheticSong], parameters: FingerprintParameters = FingerprintParameters()
  ) throws -> Catalog {
    let builder = CatalogBuilder(parameters: parameters)
    for song in songs {
      let signature = try referenceSignature(of: song.render(), parameters: parameters)
      builder.add(
        signature: signature, key: key(of: song), sourcePath: "synthetic/\(song.seed)",
        metadata: TrackMetadata(title: title(of: song), artist: "Synthetic", isrc: "ZZSYN\(song.seed)"))
    }
    return try builder.build()
  }

  /// A catalog of recordings (mono, 8 kHz) with the given keys, which are also their titles, all of `kind`.
  public static func catalog(
    ofRecordings recordings: [([Float], String)], kind: ItemKind = .song,
    parameters: FingerprintParameters = FingerprintParameters()
  ) throws -> Catalog {
    let builder = CatalogBuilder(parameters: parameters)
    for (samples, key) in recordings {
      builder.add(
        signature: try referenceSignature(of: samples, parameters: parameters), key: key, sourcePath: key,
        metadata: TrackMetadata(title: key, kind: kind))
    }
    return try builder.build()
  }

  /// What a matcher did with a stream: its events, and its state after each buffer.
  public struct Run {
    public var sink: CollectingSink
    /// State before any audio, after each buffer (with the stream time at the end of it), and after the flush.
    public var states: [(seconds: Double, state: StreamMatcher.State)]
  }

  /// Feeds `samples` to a new stream matcher in buffers of `bufferFrames` frames, then flushes it.
  public static func run(
    _ samples: [Float], channels: Int = 1, sampleRate: Double = 8000, catalog: Catalog,
    settings: MatcherSettings = MatcherSettings(), bufferFrames: Int = 4000, flush: Bool = true
  ) throws -> Run {
    let sink = CollectingSink()
    let matcher = StreamMatcher(catalog: catalog, settings: settings, sink: sink)
    var states: [(Double, StreamMatcher.State)] = [(0, matcher.state)]
    try samples.withUnsafeBufferPointer { all throws(AudioError) in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + bufferFrames * channels)
        try matcher.append(UnsafeBufferPointer(rebasing: all[start..<end]), channels: channels, sampleRate: sampleRate)
        states.append((matcher.streamSeconds, matcher.state))
        start = end
      }
    }
    if flush {
      matcher.flush()
      states.append((matcher.streamSeconds, matcher.state))
    }
    return Run(sink: sink, states: states)
  }
}
