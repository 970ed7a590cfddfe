import Foundation

/// Test signals, as mono Float samples unless said otherwise.
public enum Signals {
  /// A sine of `frequency` Hz with peak `amplitude`.
  public static func sine(
    frequency: Double, seconds: Double, sampleRate: Double = 8000, amplitude: Float = 1, phase: Double = 0
  ) -> [Float] {
    let count = Int((seconds * sampleRate).rounded())
    let step = 2 * Double.pi * frequency / sampleRate
    return (0..<count).map { amplitude * Float(sin(phase + step * Double($0))) }
  }

  /// A linear sweep from `startFrequency` to `endFrequency` Hz.
  public static func chirp(
    from startFrequency: Double, to endFrequency: Double, seconds: Double, sampleRate: Double = 8000,
    amplitude: Float = 1
  ) -> [Float] {
    let count = Int((seconds * sampleRate).rounded())
    let rate = (endFrequency - startFrequency) / seconds
    return (0..<count).map { i in
      let t = Double(i) / sampleRate
      return amplitude * Float(sin(2 * Double.pi * (startFrequency * t + rate * t * t / 2)))
    }
  }

  /// White noise, uniform in ±`amplitude`, from a seeded generator: the same seed gives the same noise.
  public static func noise(seconds: Double, sampleRate: Double = 8000, amplitude: Float = 1, seed: UInt64) -> [Float] {
    var generator = SeededGenerator(seed: seed)
    let count = Int((seconds * sampleRate).rounded())
    return (0..<count).map { _ in Float.random(in: -amplitude...amplitude, using: &generator) }
  }

  /// Digital silence.
  public static func silence(seconds: Double, sampleRate: Double = 8000) -> [Float] {
    [Float](repeating: 0, count: Int((seconds * sampleRate).rounded()))
  }

  /// A loud, voice-like babble: a harmonic-rich buzz whose pitch glides between 100 and 250 Hz, shaped into
  /// syllables about 5 times a second, with a formant-like emphasis that moves from syllable to syllable (a DJ talking
  /// over the intro). Peak level about `amplitude`.
  public static func voiceLike(seconds: Double, sampleRate: Double = 8000, amplitude: Float = 1, seed: UInt64)
    -> [Float]
  {
    var generator = SeededGenerator(seed: seed)
    let count = Int((seconds * sampleRate).rounded())
    var out = [Float](repeating: 0, count: count)
    let syllableSamples = Int(0.2 * sampleRate)
    var phase = 0.0
    var pitch = 150.0
    var formant = 800.0
    var syllableStart = 0
    for i in 0..<count {
      if i - syllableStart >= syllableSamples || i == 0 {
        syllableStart = i
        formant = Double.random(in: 400...2500, using: &generator)
        pitch = Double.random(in: 100...250, using: &generator)
      }
      let inSyllable = Double(i - syllableStart) / Double(syllableSamples)
      let envelope = sin(Double.pi * inSyllable)
      phase += 2 * Double.pi * pitch / sampleRate
      var value = 0.0
      var k = 1.0
      while k * pitch < min(3800, sampleRate / 2) {
        let distance = (k * pitch - formant) / 300
        value += sin(k * phase) / k * (0.3 + exp(-distance * distance))
        k += 1
      }
      out[i] = Float(envelope * value)
    }
    let peak = out.reduce(0) { max($0, abs($1)) }
    return peak > 0 ? out.map { $0 / peak * amplitude } : out
  }

  /// `overlay` added onto `base` from sample `offset` on (overlay samples past the end of `base` are dropped).
  public static func mix(_ base: [Float], _ overlay: [Float], at offset: Int) -> [Float] {
    var out = base
    for i in overlay.indices where offset + i >= 0 && offset + i < out.count { out[offset + i] += overlay[i] }
    return out
  }

  /// Channels interleaved frame by frame (all channels must have the same length).
  public static func interleave(_ channels: [[Float]]) -> [Float] {
    guard let first = channels.first else { return [] }
    precondition(channels.allSatisfy { $0.count == first.count }, "channels of different lengths")
    var out = [Float]()
    out.reserveCapacity(first.count * channels.count)
    for i in first.indices {
      for c in channels { out.append(c[i]) }
    }
    return out
  }

  /// Root mean square of the samples.
  public static func rms(_ samples: [Float]) -> Float {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
  }
}
