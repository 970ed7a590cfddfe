import CFFTW
import Foundation
import Synchronization

/// Turns mono samples at the fingerprint rate into Hann-windowed power spectra, one frame per hop.
///
/// One thread at a time: the thread that owns the matcher or signature generator it belongs to. FFTW plans are made
/// under a process-wide lock (FFTW's planner is not thread-safe); executing them on this stage's own aligned buffers is.
final class SpectrumAnalyzer {
  let firstBin: Int
  let binCount: Int
  private let fftSize: Int
  private let hop: Int
  private let window: [Float]
  private let input: UnsafeMutablePointer<Float>
  private let output: UnsafeMutablePointer<fftwf_complex>
  private let plan: fftwf_plan
  private var pending: [Float]
  private var pendingCount = 0
  private var power: [Float]
  private var nextFrame = 0
  private weak var consumer: (any SpectrumFrameConsumer)?

  private static let plannerLock = Mutex(())

  init(parameters p: FingerprintParameters, consumer: any SpectrumFrameConsumer) {
    fftSize = p.fftSizeSamples
    hop = p.hopSizeSamples
    (firstBin, binCount) = Self.binRange(p)
    // Hann window, scaled so that a full-scale sine peaks at 0 dB power.
    let n = fftSize
    var w = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
    let gain = w.reduce(0, +) / 2
    w = w.map { $0 / gain }
    window = w
    let inBuffer = fftwf_alloc_real(n)!
    let outBuffer = fftwf_alloc_complex(n / 2 + 1)!
    inBuffer.initialize(repeating: 0, count: n)
    input = inBuffer
    output = outBuffer
    let planAddress = Self.plannerLock.withLock { _ in
      UInt(bitPattern: fftwf_plan_dft_r2c_1d(Int32(n), inBuffer, outBuffer, UInt32(FFTW_ESTIMATE)))
    }
    plan = OpaquePointer(bitPattern: planAddress)!
    pending = [Float](repeating: 0, count: n + 4096)
    power = [Float](repeating: 0, count: binCount)
    self.consumer = consumer
  }

  deinit {
    let planAddress = UInt(bitPattern: plan)
    Self.plannerLock.withLock { _ in fftwf_destroy_plan(OpaquePointer(bitPattern: planAddress)) }
    fftwf_free(input)
    fftwf_free(output)
  }

  /// The FFT bins analysed: `minFrequencyHz` rounded down to `maxFrequencyHz` rounded up.
  static func binRange(_ p: FingerprintParameters) -> (first: Int, count: Int) {
    let binHz = Double(p.sampleRateHz) / Double(p.fftSizeSamples)
    let first = max(1, Int((p.minFrequencyHz / binHz).rounded(.down)))
    let last = min(p.fftSizeSamples / 2 - 1, Int((p.maxFrequencyHz / binHz).rounded(.up)))
    return (first, last - first + 1)
  }

  /// Appends samples; emits every frame that becomes complete.
  func consume(_ samples: UnsafeBufferPointer<Float>) {
    var offset = 0
    while offset < samples.count {
      let room = pending.count - pendingCount
      let take = min(room, samples.count - offset)
      pending.withUnsafeMutableBufferPointer { buf in
        (buf.baseAddress! + pendingCount).update(from: samples.baseAddress! + offset, count: take)
      }
      pendingCount += take
      offset += take
      drainFrames()
    }
  }

  private func drainFrames() {
    var start = 0
    while pendingCount - start >= fftSize {
      analyze(at: start)
      start += hop
    }
    if start > 0 {
      pending.withUnsafeMutableBufferPointer { buf in
        let base = buf.baseAddress!
        base.update(from: base + start, count: pendingCount - start)
      }
      pendingCount -= start
    }
  }

  private func analyze(at start: Int) {
    pending.withUnsafeBufferPointer { buf in
      window.withUnsafeBufferPointer { win in
        for i in 0..<fftSize { input[i] = buf[start + i] * win[i] }
      }
    }
    fftwf_execute_dft_r2c(plan, input, output)
    power.withUnsafeMutableBufferPointer { pw in
      let raw = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self)
      for k in 0..<binCount {
        let re = raw[2 * (firstBin + k)]
        let im = raw[2 * (firstBin + k) + 1]
        pw[k] = re * re + im * im
      }
    }
    let frame = nextFrame
    nextFrame += 1
    power.withUnsafeBufferPointer { consumer?.consume(frame: frame, power: $0) }
  }

  /// Ends the stream: frames need a full window, so a trailing part shorter than one frame is dropped.
  func flush() {
    consumer?.flush()
  }
}
