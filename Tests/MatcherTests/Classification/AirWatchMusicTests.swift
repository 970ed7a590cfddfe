import Common
import Foundation
import Matcher
import TestSupport
import Testing

/// The labelling on real music (`Tests/Fixtures/music`): a song the catalog does not have is unknown music, the
/// catalog's songs are catalog plays, and synthetic talk between them is speech.
@Suite("AirWatch on real music", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct AirWatchMusicTests {
  final class Collector: AirStretchSink {
    var stretches: [AirStretch] = []
    func receive(_ stretch: AirStretch) { stretches.append(stretch) }
  }

  static func decode(_ name: String) throws -> [Float] {
    var samples: [Float] = []
    try AudioFileDecoder(ffmpegSampleRate: 8000).decode(path: Fixtures.music(name).path) { buffer, _, _ in
      samples += buffer
    }
    return samples
  }

  @Test("Catalog song, talk, unknown song: catalog, speech, unknown music with its fingerprint")
  func programme() throws {
    let fingerprinter = ReferenceFingerprinter(parameters: FingerprintParameters())
    let builder = CatalogBuilder(parameters: fingerprinter.parameters)
    let path = Fixtures.music("catalog-a.ogg").path
    builder.add(
      signature: try fingerprinter.signature(ofFileAt: path), key: "a", sourcePath: path,
      metadata: TrackMetadata(title: "A"))
    let catalog = try builder.build()
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    // The unknown fixture is a 20 s excerpt: twice, it is 40 s of music the catalog does not have.
    let unknownSong = try Self.decode("unknown.ogg")
    let air = try Self.decode("catalog-a.ogg") + talk + unknownSong + unknownSong
    let collector = Collector()
    let watch = AirWatch(parameters: catalog.parameters, stretches: collector)
    let matcher = StreamMatcher(catalog: catalog, sink: nil, air: watch)
    try air.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000) }
    matcher.flush()
    let long = collector.stretches.filter { $0.durationSeconds >= 5 }
    #expect(long.map(\.label) == [.catalog, .speech, .unknownMusic], "\(collector.stretches)")
    #expect(long.first?.item == "a")
    let unknown = try #require(long.last)
    #expect(abs(unknown.startSeconds - 50) < 3 && abs(unknown.endSeconds - 90) < 2, "\(unknown)")
    #expect(unknown.musicConfidence > 0.7)
    #expect((unknown.signature?.peaks.count ?? 0) > 300)
    #expect(unknown.audio == nil, "a watch that keeps no audio gives none")
  }

  @Test("A watch that keeps audio gives an unknown segment its air audio, sample for sample")
  func unknownAudio() throws {
    let catalog = try CatalogBuilder(parameters: FingerprintParameters()).build()
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    let unknownSong = try Self.decode("unknown.ogg")
    let air = talk + unknownSong + unknownSong + talk
    let collector = Collector()
    let watch = AirWatch(parameters: catalog.parameters, stretches: collector, keepingAudioSeconds: 120)
    let matcher = StreamMatcher(catalog: catalog, sink: nil, air: watch)
    try air.withUnsafeBufferPointer { try matcher.append($0, sampleRate: 8000) }
    matcher.flush()
    let unknown = try #require(collector.stretches.first { $0.label == .unknownMusic }, "\(collector.stretches)")
    let audio = try #require(unknown.audio)
    #expect(audio.count == Int((unknown.durationSeconds * 8000).rounded()))
    let first = Int((unknown.startSeconds * 8000).rounded())
    // The decoded fixture goes past full scale in places; the ring keeps 16 bits, so those are clipped.
    let worst = zip(audio, air[first...]).map { abs($0 - max(-1, min(1, $1))) }.max() ?? 1
    #expect(worst < 1e-4, "the clip's audio is the air's, to 16 bits")
  }
}
