import Foundation

/// Turns the fingerprint front end's power spectra (and its peak count) into `AirFeatures`, one window of
/// `ClassifierTuning.windowFrames` frames at a time: level, pauses, syllable-rate modulation, flatness, flux,
/// harmonicity and peak rate. It reuses the spectra the matcher already makes, so it adds no FFT.
///
/// Owns its buffers, allocated once. One thread at a time: the thread that feeds the stream matcher it taps.
final class AirFeatureExtractor: SpectrumFrameConsumer {
  private let binCount: Int
  /// Bins used for harmonicity: the analysed band up to `ClassifierTuning.harmonicityMaxHz`.
  private let harmonicBins: Int
  private let minLag: Int
  private let maxLag: Int
  private let windowFrames = ClassifierTuning.windowFrames
  private let envelopeFrames = ClassifierTuning.envelopeFrames
  private let framesPerSecond: Double
  private var amplitude: [Float]
  private var previousAmplitude: [Float]
  private var centred: [Float]
  /// Level of the last `envelopeFrames` frames in dB, a ring indexed by frame.
  private var envelope: [Float]
  /// cos and sin of the modulation DFT's bins (2–8 Hz) over the envelope, `envelopeFrames` each.
  private let modulationCos: [Float]
  private let modulationSin: [Float]
  private var frames = 0
  private var windowStart = 0
  private var sumLevel: Double = 0
  private var sumFlatness: Double = 0
  private var sumFlux: Double = 0
  private var sumHarmonicity: Double = 0
  private var peaksInWindow = 0
  private weak var consumer: (any AirFeaturesConsumer)?

  init(parameters p: FingerprintParameters, firstBin: Int, binCount: Int, consumer: any AirFeaturesConsumer) {
    self.binCount = binCount
    let binHz = Double(p.sampleRateHz) / Double(p.fftSizeSamples)
    harmonicBins = min(binCount, max(0, Int(ClassifierTuning.harmonicityMaxHz / binHz) - firstBin))
    minLag = max(1, Int((ClassifierTuning.minFundamentalHz / binHz).rounded()))
    maxLag = max(minLag, Int((ClassifierTuning.maxFundamentalHz / binHz).rounded()))
    framesPerSecond = p.framesPerSecond
    amplitude = [Float](repeating: 0, count: binCount)
    previousAmplitude = [Float](repeating: 0, count: binCount)
    centred = [Float](repeating: 0, count: binCount)
    envelope = [Float](repeating: -120, count: envelopeFrames)
    var cosines: [Float] = []
    var sines: [Float] = []
    let n = envelopeFrames
    let lowBin = Int((ClassifierTuning.syllableMinHz * Double(n) / p.framesPerSecond).rounded(.up))
    let highBin = Int((ClassifierTuning.syllableMaxHz * Double(n) / p.framesPerSecond).rounded(.down))
    for k in lowBin...max(lowBin, highBin) {
      for t in 0..<n {
        let phase = 2 * Double.pi * Double(k * t) / Double(n)
        cosines.append(Float(cos(phase)))
        sines.append(Float(sin(phase)))
      }
    }
    modulationCos = cosines
    modulationSin = sines
    self.consumer = consumer
  }

  /// Counts fingerprint peaks towards the current window.
  func notePeaks(_ count: Int) { peaksInWindow += count }

  func consume(frame: Int, power: UnsafeBufferPointer<Float>) {
    var sum: Float = 0
    var sumLog: Float = 0
    var sumAmplitude: Float = 0
    var rise: Float = 0
    let floor = ClassifierTuning.powerFloor
    amplitude.withUnsafeMutableBufferPointer { a in
      previousAmplitude.withUnsafeMutableBufferPointer { previous in
        for k in 0..<binCount {
          let v = max(power[k], floor)
          sum += v
          sumLog += log(v)
          let amp = v.squareRoot()
          a[k] = amp
          sumAmplitude += amp
          rise += max(0, amp - previous[k])
          previous[k] = amp
        }
      }
    }
    let mean = sum / Float(binCount)
    let level = 10 * log10(sum)
    envelope[frames % envelopeFrames] = level
    sumLevel += Double(level)
    sumFlatness += Double(exp(sumLog / Float(binCount)) / mean)
    sumFlux += frames == 0 ? 0 : Double(rise / sumAmplitude)
    sumHarmonicity += Double(harmonicity())
    frames += 1
    if frames - windowStart == windowFrames { emitWindow() }
  }

  func flush() {
    if frames > windowStart { emitWindow() }
  }

  /// Best normalised autocorrelation of the (mean-removed) amplitude spectrum below `harmonicityMaxHz` at a lag of
  /// one fundamental: a harmonic sound's partials repeat every f0.
  private func harmonicity() -> Float {
    let n = harmonicBins
    guard n > maxLag + 1 else { return 0 }
    var best: Float = 0
    amplitude.withUnsafeBufferPointer { a in
      centred.withUnsafeMutableBufferPointer { x in
        var mean: Float = 0
        for k in 0..<n { mean += a[k] }
        mean /= Float(n)
        var energy: Float = 0
        for k in 0..<n {
          x[k] = a[k] - mean
          energy += x[k] * x[k]
        }
        guard energy > 0 else { return }
        for lag in minLag...maxLag {
          var r: Float = 0
          for k in 0..<(n - lag) { r += x[k] * x[k + lag] }
          best = max(best, r / energy)
        }
      }
    }
    return best
  }

  private func emitWindow() {
    let count = frames - windowStart
    let n = envelopeFrames
    let available = min(frames, n)
    // The envelope's frames in time order, oldest first (the ring is indexed by frame).
    var meanPower: Double = 0
    var meanDB: Float = 0
    for i in 0..<available {
      let v = envelope[(frames - available + i) % n]
      meanPower += pow(10, Double(v) / 10)
      meanDB += v
    }
    meanPower /= Double(available)
    meanDB /= Float(available)
    let threshold = Float(10 * log10(max(meanPower, 1e-30)) - ClassifierTuning.lowEnergyDropDB)
    var low = 0
    for i in 0..<count where envelope[(frames - count + i) % n] < threshold { low += 1 }
    var modulation: Double = 0
    if available == n {
      let bins = modulationCos.count / n
      var power: Float = 0
      for b in 0..<bins {
        var re: Float = 0
        var im: Float = 0
        for t in 0..<n {
          let v = envelope[(frames - n + t) % n] - meanDB
          re += v * modulationCos[b * n + t]
          im += v * modulationSin[b * n + t]
        }
        power += re * re + im * im
      }
      // Parseval: RMS of the 2–8 Hz part of the envelope, in dB.
      modulation = Double((2 * power).squareRoot() / Float(n))
    }
    let c = Double(count)
    consumer?.consume(
      AirFeatures(
        startFrame: windowStart, frameCount: count, levelDB: sumLevel / c, lowEnergyShare: Double(low) / c,
        syllableModulationDB: modulation, flatness: sumFlatness / c, flux: sumFlux / c,
        harmonicity: sumHarmonicity / c, peaksPerSecond: Double(peaksInWindow) * framesPerSecond / c))
    windowStart = frames
    sumLevel = 0
    sumFlatness = 0
    sumFlux = 0
    sumHarmonicity = 0
    peaksInWindow = 0
  }
}
