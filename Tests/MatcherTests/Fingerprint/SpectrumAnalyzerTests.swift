import Foundation
import TestSupport
import Testing

@testable import Matcher

/// Keeps every power spectrum a `SpectrumAnalyzer` emits.
private final class FrameCapture: SpectrumFrameConsumer {
  var frames: [[Float]] = []
  var indices: [Int] = []
  var flushes = 0
  func consume(frame: Int, power: UnsafeBufferPointer<Float>) {
    indices.append(frame)
    frames.append(Array(power))
  }
  func flush() { flushes += 1 }
}

@Suite("SpectrumAnalyzer")
struct SpectrumAnalyzerTests {
  let parameters = FingerprintParameters()
  var binHz: Double { Double(parameters.sampleRateHz) / Double(parameters.fftSizeSamples) }

  private func analyze(_ samples: [Float], chunk: Int? = nil) -> (FrameCapture, SpectrumAnalyzer) {
    let capture = FrameCapture()
    let analyzer = SpectrumAnalyzer(parameters: parameters, consumer: capture)
    samples.withUnsafeBufferPointer { all in
      let step = chunk ?? max(1, all.count)
      var start = 0
      while start < all.count {
        analyzer.consume(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + step)]))
        start += step
      }
    }
    return (capture, analyzer)
  }

  private func db(_ power: Float) -> Double { 10 * log10(Double(power)) }

  @Test("A full-scale sine at a bin's centre frequency peaks in that bin at 0 dB", arguments: [40, 128, 300, 470])
  func fullScaleSine(bin: Int) throws {
    let (capture, analyzer) = analyze(Signals.sine(frequency: Double(bin) * binHz, seconds: 0.5))
    #expect(capture.frames.count > 5)
    for power in capture.frames {
      let loudest = try #require(power.indices.max { power[$0] < power[$1] })
      #expect(loudest + analyzer.firstBin == bin)
      #expect(abs(db(power[loudest])) < 0.05)
    }
  }

  @Test("Half amplitude is 6 dB down")
  func halfAmplitude() {
    let bin = 200
    let (capture, analyzer) = analyze(Signals.sine(frequency: Double(bin) * binHz, seconds: 0.3, amplitude: 0.5))
    for power in capture.frames {
      #expect(abs(db(power[bin - analyzer.firstBin]) - 20 * log10(0.5)) < 0.05)
    }
  }

  @Test("A sine between two bins peaks in the nearer one", arguments: [0.3, 0.7])
  func betweenBins(fraction: Double) throws {
    let (capture, analyzer) = analyze(Signals.sine(frequency: (160 + fraction) * binHz, seconds: 0.3))
    let power = try #require(capture.frames.last)
    let loudest = try #require(power.indices.max { power[$0] < power[$1] })
    #expect(loudest + analyzer.firstBin == (fraction < 0.5 ? 160 : 161))
  }

  @Test("A tone below minFrequencyHz stays out of the analysed bins")
  func outOfBand() throws {
    let (capture, _) = analyze(Signals.sine(frequency: parameters.minFrequencyHz / 3, seconds: 0.3))
    let power = try #require(capture.frames.last)
    #expect(db(power.max() ?? 0) < -60)
  }

  @Test("One frame per hop once a full window is in, the same whatever the buffer sizes")
  func framing() {
    let samples = Signals.noise(seconds: 1.3, seed: 5)
    let expectedFrames = (samples.count - parameters.fftSizeSamples) / parameters.hopSizeSamples + 1
    let (whole, _) = analyze(samples)
    #expect(whole.frames.count == expectedFrames)
    #expect(whole.indices == Array(0..<expectedFrames))
    for chunk in [1, 7, 256, 1000, 5000] {
      let (pieces, _) = analyze(samples, chunk: chunk)
      #expect(pieces.frames == whole.frames, "chunks of \(chunk)")
    }
  }

  @Test("Fewer samples than one window make no frame; flush passes on to the consumer")
  func shortInput() {
    let (capture, analyzer) = analyze(Signals.noise(seconds: 0.1, seed: 1))
    #expect(capture.frames.isEmpty)
    analyzer.flush()
    #expect(capture.flushes == 1)
  }

  @Test(
    "The analysed bins run from minFrequencyHz rounded down to maxFrequencyHz rounded up",
    arguments: [(8000, 1024, 250.0, 3750.0), (16000, 2048, 100.0, 7000.0), (11025, 512, 300.0, 5000.0)])
  func binRange(rate: Int, fft: Int, low: Double, high: Double) {
    var p = FingerprintParameters()
    p.sampleRateHz = rate
    p.fftSizeSamples = fft
    p.minFrequencyHz = low
    p.maxFrequencyHz = high
    let hz = Double(rate) / Double(fft)
    let range = SpectrumAnalyzer.binRange(p)
    let last = range.first + range.count - 1
    #expect(Double(range.first) * hz <= low && Double(range.first + 1) * hz > low)
    #expect(Double(last) * hz >= high && Double(last - 1) * hz < high)
  }
}
