import Foundation

/// The chain from raw audio to peaks, assembled here and nowhere else:
/// interleaved samples → downmix → `Resampler` (to the fingerprint rate) → `SpectrumAnalyzer` → `PeakExtractor` →
/// the consumer (a signature collector, or a stream matcher). An optional spectrum tap (the air classifier's feature
/// extractor) receives the same spectra beside the peak extractor, and an optional audio ring (the air watch's, for
/// clips of unknown music) the audio at the fingerprint rate.
///
/// Also measures the audible span on the way, and for a signature where the recording's loud part ends (`QuietTail`).
/// One thread at a time.
final class FingerprintFrontEnd {
  let parameters: FingerprintParameters
  private let analyzer: SpectrumAnalyzer
  private let extractor: PeakExtractor
  /// Hands each spectrum to the peak extractor and the tap, when there is a tap.
  private let tee: SpectrumFrameTee?
  private let audioRing: AirAudioRing?
  private var resampler: Resampler?
  private var mono: [Float] = []
  /// Samples delivered at the fingerprint rate.
  private(set) var samplesAtFingerprintRate = 0
  /// First and last hop (at the fingerprint rate) louder than -60 dBFS, or nil while all was quieter.
  private(set) var firstAudibleHop: Int?
  private(set) var lastAudibleHop: Int?
  private var hopEnergy: Float = 0
  private var hopFill = 0
  /// Mean square of -60 dBFS: audio quieter than this is silence, not sound (the audible span, `QuietTail`'s median).
  static let audibleMeanSquare: Float = 1e-6
  /// `audibleMeanSquare` over one hop.
  private let audibleEnergy: Float
  /// The loud part's measure, for signatures only: a stream matcher's front end runs for months.
  private(set) var quietTail: QuietTail?

  init(
    parameters: FingerprintParameters, peaksPerBlock: Int, consumer: any PeakConsumer,
    spectrumTap: (any SpectrumFrameConsumer)? = nil, audioRing: AirAudioRing? = nil, measuresQuietTail: Bool = false
  ) {
    self.parameters = parameters
    quietTail = measuresQuietTail ? QuietTail() : nil
    self.audioRing = audioRing
    let bins = SpectrumAnalyzer.binRange(parameters)
    extractor = PeakExtractor(
      parameters: parameters, firstBin: bins.first, binCount: bins.count, peaksPerBlock: peaksPerBlock,
      consumer: consumer)
    let peaks = extractor
    tee = spectrumTap.map { SpectrumFrameTee(first: peaks, second: $0) }
    analyzer = SpectrumAnalyzer(parameters: parameters, consumer: tee ?? peaks)
    audibleEnergy = Float(parameters.hopSizeSamples) * Self.audibleMeanSquare
  }

  /// Appends interleaved samples with `channels` channels at `sampleRate` Hz.
  func append(_ samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Double) throws(AudioError) {
    guard channels >= 1 else { throw AudioError.unsupported("audio with \(channels) channels") }
    if channels == 1 {
      try deliver(samples, sampleRate: sampleRate)
      return
    }
    let frames = samples.count / channels
    if mono.count < frames { mono = [Float](repeating: 0, count: frames) }
    mono.withUnsafeMutableBufferPointer { m in
      let src = samples.baseAddress!
      switch channels {
      case 2:
        for i in 0..<frames { m[i] = (src[2 * i] + src[2 * i + 1]) * 0.5 }
      default:
        let scale = 1 / Float(channels)
        for i in 0..<frames {
          var sum: Float = 0
          for c in 0..<channels { sum += src[i * channels + c] }
          m[i] = sum * scale
        }
      }
    }
    try mono.withUnsafeBufferPointer { m throws(AudioError) in
      try deliver(UnsafeBufferPointer(rebasing: m[0..<frames]), sampleRate: sampleRate)
    }
  }

  private func deliver(_ samples: UnsafeBufferPointer<Float>, sampleRate: Double) throws(AudioError) {
    if sampleRate == Double(parameters.sampleRateHz) {
      atFingerprintRate(samples)
      return
    }
    if resampler == nil || resampler!.inputRate != sampleRate {
      resampler = try Resampler(inputRate: sampleRate, outputRate: Double(parameters.sampleRateHz))
    }
    resampler!.process(samples) { atFingerprintRate($0) }
  }

  /// Analyses `samples` a hop at a time, counting each hop before it is analysed: whoever the peaks reach (a stream
  /// matcher deciding that a play started) sees the stream time of the audio analysed so far, not of the end of a
  /// long buffer (a scan's buffers of an 8 kHz mono file are a second long).
  private func atFingerprintRate(_ samples: UnsafeBufferPointer<Float>) {
    audioRing?.append(samples)
    let hop = parameters.hopSizeSamples
    var start = 0
    while start < samples.count {
      let slice = UnsafeBufferPointer(rebasing: samples[start..<min(samples.count, start + hop - hopFill)])
      measure(slice)
      analyzer.consume(slice)
      start += slice.count
    }
  }

  /// Audible span of a slice that does not cross a hop boundary.
  private func measure(_ slice: UnsafeBufferPointer<Float>) {
    for s in slice { hopEnergy += s * s }
    hopFill += slice.count
    samplesAtFingerprintRate += slice.count
    if hopFill == parameters.hopSizeSamples {
      quietTail?.add(hopEnergy: hopEnergy, samples: hopFill)
      if hopEnergy > audibleEnergy {
        let index = samplesAtFingerprintRate / parameters.hopSizeSamples - 1
        if firstAudibleHop == nil { firstAudibleHop = index }
        lastAudibleHop = index
      }
      hopEnergy = 0
      hopFill = 0
    }
  }

  /// Ends the input: drains the resampler and the peak extractor.
  func flush() {
    resampler?.process(UnsafeBufferPointer(start: nil, count: 0), flush: true) { atFingerprintRate($0) }
    analyzer.flush()
    if hopFill > 0 { quietTail?.add(hopEnergy: hopEnergy, samples: hopFill) }
    quietTail?.flush()
  }
}
