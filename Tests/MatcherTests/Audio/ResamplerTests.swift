import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("Resampler")
struct ResamplerTests {
  static func resample(_ samples: [Float], from input: Double, to output: Double, chunk: Int) throws -> [Float] {
    let resampler = try Resampler(inputRate: input, outputRate: output)
    var out: [Float] = []
    var start = 0
    while start < samples.count {
      let piece = Array(samples[start..<min(samples.count, start + chunk)])
      piece.withUnsafeBufferPointer { resampler.process($0) { out += $0 } }
      start += chunk
    }
    resampler.process(UnsafeBufferPointer(start: nil, count: 0), flush: true) { out += $0 }
    return out
  }

  @Test("44.1 kHz to 8 kHz keeps a tone's frequency and level, and the length scales by the rate ratio")
  func downsample() throws {
    let input = Signals.sine(frequency: 1000, seconds: 1, sampleRate: 44100, amplitude: 0.5)
    let output = try Self.resample(input, from: 44100, to: 8000, chunk: 4096)
    #expect(abs(output.count - 8000) <= 2)
    let middle = Array(output[2000..<6000])
    #expect(abs(Signals.rms(middle) - 0.5 / Float(2).squareRoot()) < 0.01)
    // Compare with the ideal tone at 8 kHz, allowing for the filter's delay by searching the best alignment.
    let ideal = Signals.sine(frequency: 1000, seconds: 1, sampleRate: 8000, amplitude: 0.5)
    var bestError: Float = 1
    for shift in 0..<8 {
      var worst: Float = 0
      for (a, b) in zip(middle, ideal[(2000 + shift)..<(6000 + shift)]) { worst = max(worst, abs(a - b)) }
      bestError = min(bestError, worst)
    }
    #expect(bestError < 0.02)
  }

  @Test("Content above the new Nyquist frequency is removed, not folded back")
  func antiAliasing() throws {
    let input = Signals.sine(frequency: 6000, seconds: 0.5, sampleRate: 44100, amplitude: 0.5)
    let output = try Self.resample(input, from: 44100, to: 8000, chunk: 1000)
    #expect(Signals.rms(Array(output[500..<3500])) < 0.005)
  }

  @Test("Output does not depend on how the input is cut into buffers")
  func chunking() throws {
    let input = Signals.noise(seconds: 0.5, sampleRate: 22050, amplitude: 0.5, seed: 4)
    let whole = try Self.resample(input, from: 22050, to: 8000, chunk: input.count)
    for chunk in [1, 100, 3000] {
      let pieces = try Self.resample(input, from: 22050, to: 8000, chunk: chunk)
      #expect(pieces.count == whole.count)
      #expect(zip(pieces, whole).allSatisfy { abs($0 - $1) < 1e-5 }, "chunks of \(chunk)")
    }
  }

  @Test("A rate of zero is refused with an AudioError")
  func badRate() {
    #expect(throws: AudioError.self) { try Resampler(inputRate: 0, outputRate: 8000) }
    #expect(throws: AudioError.self) { try Resampler(inputRate: 44100, outputRate: 0) }
  }
}
