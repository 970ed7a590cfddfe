import Foundation
import Matcher
import TestSupport
import Testing

/// The air classifier's features on synthetic signals, through a stream matcher's own front end.
@Suite("AirFeatureExtractor")
struct AirFeatureExtractorTests {
  /// Keeps what the watch makes.
  final class Collector: AirStretchSink {
    var stretches: [AirStretch] = []
    var windows: [(features: AirFeatures, label: AirLabel)] = []
    func receive(_ stretch: AirStretch) { stretches.append(stretch) }
  }

  /// Feeds `samples` (8 kHz mono) to a matcher with an air watch; returns the windows and the stretches.
  static func watch(_ samples: [Float]) throws -> Collector {
    let collector = Collector()
    let catalog = try MatcherHarness.catalog(of: [SyntheticSong(seed: 99, seconds: 20)])
    let air = AirWatch(parameters: catalog.parameters, stretches: collector)
    air.featureLog = { features, label, _ in collector.windows.append((features, label)) }
    let matcher = StreamMatcher(catalog: catalog, sink: nil, air: air)
    try samples.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000) }
    matcher.flush()
    return collector
  }

  /// The median of a feature over the windows after the first two (whose 2 s of level history is not yet full).
  static func median(_ c: Collector, _ value: (AirFeatures) -> Double) -> Double {
    let v = c.windows.dropFirst(2).map { value($0.features) }.sorted()
    return v[v.count / 2]
  }

  @Test("A steady tone is tonal and steady: low flatness, no flux, no syllable modulation")
  func tone() throws {
    let c = try Self.watch(Signals.sine(frequency: 440, seconds: 10, amplitude: 0.5))
    #expect(Self.median(c, \.flatness) < 0.05)
    #expect(Self.median(c, \.flux) < 0.05)
    #expect(Self.median(c, \.syllableModulationDB) < 0.5)
    #expect(Self.median(c, \.lowEnergyShare) == 0)
    #expect(abs(Self.median(c, \.levelDB) - -6) < 3)  // a 0.5 sine: -6 dB
  }

  @Test("White noise is flat, and its fingerprint peaks come at the query's full rate")
  func noise() throws {
    let c = try Self.watch(Signals.noise(seconds: 10, amplitude: 0.3, seed: 7))
    #expect(Self.median(c, \.flatness) > 0.4)
    #expect(Self.median(c, \.harmonicity) < 0.2)
    #expect(Self.median(c, \.peaksPerSecond) > 15)
  }

  @Test("Speech-like syllables modulate the level at syllable rate, are harmonic and score as speech")
  func speechLike() throws {
    let c = try Self.watch(Signals.voiceLike(seconds: 10, amplitude: 0.5, seed: 3))
    #expect(Self.median(c, \.syllableModulationDB) > 3)  // music: about 1 dB
    #expect(Self.median(c, \.harmonicity) > 0.4)
    #expect(c.windows.dropFirst(2).filter { $0.label == .speech }.count >= c.windows.count - 4)
  }

  @Test("Digital silence is silence, and a stream of it is one silence stretch")
  func silence() throws {
    let c = try Self.watch(Signals.silence(seconds: 30))
    #expect(c.windows.allSatisfy { $0.label == .silence })
    #expect(c.stretches.map(\.label) == [.silence])
    #expect(abs(c.stretches[0].endSeconds - 30) < 1.1)
  }

  @Test("Windows are about a second long and tile the stream from its start")
  func windows() throws {
    let c = try Self.watch(Signals.noise(seconds: 10, amplitude: 0.3, seed: 1))
    #expect(c.windows.first?.features.startFrame == 0)
    for (a, b) in zip(c.windows, c.windows.dropFirst()) {
      #expect(b.features.startFrame == a.features.startFrame + a.features.frameCount)
    }
    #expect(c.windows.dropLast().allSatisfy { $0.features.frameCount == 32 })
  }
}
