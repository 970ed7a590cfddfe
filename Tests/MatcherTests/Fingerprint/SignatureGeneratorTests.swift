import Foundation
import Matcher
import TestSupport
import Testing

@Suite("SignatureGenerator")
struct SignatureGeneratorTests {
  let parameters = FingerprintParameters()
  var binHz: Double { Double(parameters.sampleRateHz) / Double(parameters.fftSizeSamples) }

  /// Tone bursts: `frequency` Hz every 0.5 s, each with a 0.2 s Hann envelope, so that each has one clear loudest
  /// moment.
  static func bursts(frequency: Double, seconds: Double, sampleRate: Double) -> [Float] {
    let tone = Signals.sine(frequency: frequency, seconds: seconds, sampleRate: sampleRate, amplitude: 0.5)
    let length = 0.2
    return tone.indices.map { i in
      let t = (Double(i) / sampleRate).truncatingRemainder(dividingBy: 0.5)
      guard t < length else { return 0 }
      return tone[i] * Float(0.5 - 0.5 * cos(2 * Double.pi * t / length))
    }
  }

  func signature(
    _ samples: [Float], channels: Int = 1, sampleRate: Double, purpose: SignatureGenerator.Purpose = .query
  )
    throws -> Signature
  {
    let generator = SignatureGenerator(parameters: parameters, purpose: purpose)
    try generator.append(samples, channels: channels, sampleRate: sampleRate)
    return generator.signature()
  }

  @Test("The same tone at 44.1 kHz stereo and at 8 kHz mono gives peaks at the same frequency and frames")
  func anyRateAndChannelCount() throws {
    let frequency = 1250.0
    let mono = try signature(Self.bursts(frequency: frequency, seconds: 4, sampleRate: 8000), sampleRate: 8000)
    let left = Self.bursts(frequency: frequency, seconds: 4, sampleRate: 44100)
    let stereo = try signature(
      Signals.interleave([left, left.map { $0 * 0.5 }]), channels: 2, sampleRate: 44100)
    for s in [mono, stereo] {
      #expect(s.peaks.count >= 8)
      for peak in s.peaks {
        #expect(abs(Double(peak.bin) * binHz - frequency) < binHz, "peak at \(Double(peak.bin) * binHz) Hz")
      }
    }
    let monoFrames = mono.peaks.map(\.frame)
    let stereoFrames = stereo.peaks.map(\.frame)
    #expect(monoFrames.count == stereoFrames.count)
    for (a, b) in zip(monoFrames, stereoFrames) { #expect(abs(a - b) <= 1) }
    #expect(abs(mono.durationSeconds - stereo.durationSeconds) < 0.01)
  }

  @Test("A sweep's peaks follow its frequency over time")
  func chirpPeaksFollowTime() throws {
    let (f0, f1, seconds) = (400.0, 3400.0, 4.0)
    let s = try signature(Signals.chirp(from: f0, to: f1, seconds: seconds, amplitude: 0.5), sampleRate: 8000)
    #expect(s.peaks.count >= 4)
    for peak in s.peaks {
      let t = parameters.seconds(ofFrame: Double(peak.frame))
      let expected = f0 + (f1 - f0) * t / seconds
      #expect(abs(Double(peak.bin) * binHz - expected) < 30, "frame \(peak.frame)")
    }
  }

  @Test("Appending in pieces of any size gives the same signature as appending it all at once")
  func chunking() throws {
    let samples = SyntheticSong(seed: 11, seconds: 4).render()
    let whole = try signature(samples, sampleRate: 8000)
    for chunk in [1, 333, 4096] {
      let generator = SignatureGenerator(parameters: parameters, purpose: .query)
      var start = 0
      while start < samples.count {
        try generator.append(Array(samples[start..<min(samples.count, start + chunk)]), sampleRate: 8000)
        start += chunk
      }
      #expect(generator.signature() == whole, "chunks of \(chunk)")
    }
  }

  @Test("Duration and audible span: 1 s of silence, 2 s of sound, 1 s of silence", arguments: [8000.0, 44100.0])
  func audibleSpan(rate: Double) throws {
    let samples =
      Signals.silence(seconds: 1, sampleRate: rate)
      + Signals.sine(frequency: 700, seconds: 2, sampleRate: rate, amplitude: 0.3)
      + Signals.silence(seconds: 1, sampleRate: rate)
    let s = try signature(samples, sampleRate: rate)
    let hop = Double(parameters.hopSizeSamples) / Double(parameters.sampleRateHz)
    #expect(abs(s.durationSeconds - 4) < 0.01)
    #expect(abs(s.audibleStartSeconds - 1) <= hop + 0.005)
    #expect(abs(s.audibleEndSeconds - 3) <= hop + 0.005)
    #expect(s.frameCount == (s.sampleCount - parameters.fftSizeSamples) / parameters.hopSizeSamples + 1)
  }

  @Test(
    "A reference recording's loud part ends where its last seconds fall 20 dB under it", arguments: [8000.0, 44100.0])
  func loudEnd(rate: Double) throws {
    let samples =
      Signals.sine(frequency: 700, seconds: 20, sampleRate: rate, amplitude: 0.3)
      + Signals.sine(frequency: 700, seconds: 8, sampleRate: rate, amplitude: 0.03)
    let s = try signature(samples, sampleRate: rate, purpose: .reference)
    #expect(abs(s.audibleEndSeconds - 28) < 0.1)
    // Within a window (0.512 s) of the fall: the window across it is loud on its loud part's energy alone.
    #expect(abs(s.loudEndSeconds - 20) <= 0.52, "\(s.loudEndSeconds) s")
    let loud = try signature(Array(samples.prefix(Int(20 * rate))), sampleRate: rate, purpose: .reference)
    #expect(loud.loudEndSeconds == loud.audibleEndSeconds)
  }

  @Test("Silence has no audible span and no peaks")
  func silence() throws {
    let s = try signature(Signals.silence(seconds: 2), sampleRate: 8000)
    #expect(s.peaks.isEmpty)
    #expect(s.audibleStartSeconds == 0 && s.audibleEndSeconds == 0)
    #expect(abs(s.durationSeconds - 2) < 1e-9)
  }

  @Test("Reference signatures keep at most referencePeaksPerBlock per block, query ones queryPeaksPerBlock")
  func peaksPerBlock() throws {
    let samples = SyntheticSong(seed: 12, seconds: 6, notesPerSecond: 20).render()
    let reference = try signature(samples, sampleRate: 8000, purpose: .reference)
    let query = try signature(samples, sampleRate: 8000, purpose: .query)
    func perBlock(_ s: Signature) -> [Int32: Int] {
      Dictionary(grouping: s.peaks) { $0.frame / Int32(parameters.peakBlockFrames) }.mapValues(\.count)
    }
    #expect(perBlock(reference).values.allSatisfy { $0 <= parameters.referencePeaksPerBlock })
    #expect(perBlock(query).values.allSatisfy { $0 <= parameters.queryPeaksPerBlock })
    #expect(perBlock(query).values.contains { $0 > parameters.referencePeaksPerBlock })
    #expect(reference.peaks.count < query.peaks.count)
    // The reference's peaks are the strongest of the query's: every one of them is among the query's.
    #expect(Set(reference.peaks).isSubset(of: Set(query.peaks)))
  }

  @Test("Peaks come in frame order")
  func order() throws {
    let s = try signature(SyntheticSong(seed: 13, seconds: 5).render(), sampleRate: 8000)
    #expect(
      zip(s.peaks, s.peaks.dropFirst()).allSatisfy { $0.frame < $1.frame || ($0.frame == $1.frame && $0.bin < $1.bin) })
  }

  @Test("Audio with no channels, or at a rate of zero, is an AudioError")
  func unusableInput() {
    let generator = SignatureGenerator()
    #expect(throws: AudioError.self) { try generator.append([0, 0], channels: 0, sampleRate: 8000) }
    #expect(throws: AudioError.self) { try generator.append([0, 0], sampleRate: 0) }
  }

  @Test("signature() can be asked again and gives the same signature")
  func signatureTwice() throws {
    let generator = SignatureGenerator()
    try generator.append(SyntheticSong(seed: 14, seconds: 2).render(), sampleRate: 8000)
    let first = generator.signature()
    #expect(generator.signature() == first)
    #expect(!first.peaks.isEmpty)
  }
}
