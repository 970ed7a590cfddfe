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
  /// Frames of the current window whose flatness and harmonicity were measured, and whose flux was.
  private var sampledFrames = 0
  private var fluxFrames = 0
  private weak var consumer: (any AirFeaturesConsumer)?

  init(parameters p: FingerprintParameters, firstBin: Int, binCount: Int, consumer: any AirFeaturesConsumer) {
    self.binCount = binCount
    let binHz = Double(p.sampleRateHz) / Double(p.fftSizeSamples)
    harmonicBins = min(binCount, max(0, Int(ClassifierTuning.harmonicityMaxHz / binHz) - firstBin))
    minLag = max(1, Int((ClassifierTuning.minFundamentalHz / binHz).rounded()))
    maxLag = max(minLag, Int((ClassifierTuning.maxFundamentalHz / binHz).rounded()))
    framesPerSecond = p.framesPerSecond
    amplitude = [Float](repeating: 0, count: binCount)
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
    let floor = ClassifierTuning.powerFloor
    let sum = max(Self.sum(power), floor)
    let level = 10 * log10(sum)
    envelope[frames % envelopeFrames] = level
    sumLevel += Double(level)
    // Flux compares amplitude spectra `fluxFrameStride` frames apart, on every such frame; flatness and harmonicity
    // (a logarithm per bin, a comb of lags) are measured on every `sampledFrameStride`-th frame. The level, which
    // the syllable modulation needs at the full frame rate, is measured on every frame.
    if frames % ClassifierTuning.fluxFrameStride == 0 {
      let (amplitudeSum, rise) = updateAmplitude(power)
      if frames > 0 && amplitudeSum > 0 {
        sumFlux += Double(rise / amplitudeSum)
        fluxFrames += 1
      }
    }
    if frames % ClassifierTuning.sampledFrameStride == 0 {
      var sumLog: Float = 0
      for k in 0..<binCount { sumLog += log(max(power[k], floor)) }
      sumFlatness += Double(exp(sumLog / Float(binCount)) / (sum / Float(binCount)))
      sumHarmonicity += Double(harmonicity())
      sampledFrames += 1
    }
    frames += 1
    if frames - windowStart == windowFrames { emitWindow() }
  }

  /// Σ power, eight bins at a time (SIMD): a plain loop would add one bin after the other.
  private static func sum(_ power: UnsafeBufferPointer<Float>) -> Float {
    let p = UnsafeRawPointer(power.baseAddress!)
    var sums = SIMD8<Float>()
    var k = 0
    while k + 8 <= power.count {
      sums += p.loadUnaligned(fromByteOffset: k * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
      k += 8
    }
    var total = sums.sum()
    while k < power.count {
      total += power[k]
      k += 1
    }
    return total
  }

  /// The amplitude spectrum (kept for harmonicity and the next flux) and, against the last one, the sum of its
  /// rises; returns the amplitudes' sum and the rise.
  private func updateAmplitude(_ power: UnsafeBufferPointer<Float>) -> (sum: Float, rise: Float) {
    amplitude.withUnsafeMutableBufferPointer { a in
      let p = UnsafeRawPointer(power.baseAddress!)
      let out = UnsafeMutableRawPointer(a.baseAddress!)
      var amplitudes = SIMD8<Float>()
      var rises = SIMD8<Float>()
      var k = 0
      while k + 8 <= binCount {
        let offset = k * MemoryLayout<Float>.stride
        let amp = p.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self).squareRoot()
        amplitudes += amp
        let change = amp - out.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
        rises += change.replacing(with: 0, where: change .< 0)
        out.storeBytes(of: amp, toByteOffset: offset, as: SIMD8<Float>.self)
        k += 8
      }
      var total = amplitudes.sum()
      var rise = rises.sum()
      while k < binCount {
        let amp = power[k].squareRoot()
        total += amp
        rise += max(0, amp - a[k])
        a[k] = amp
        k += 1
      }
      return (total, rise)
    }
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
        let base = UnsafePointer(x.baseAddress!)
        for lag in minLag...maxLag {
          best = max(best, Self.dot(base, base + lag, n - lag) / energy)
        }
      }
    }
    return best
  }

  /// Σ a[k]·b[k] for k < count, eight at a time.
  @inline(__always)
  private static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
    let ra = UnsafeRawPointer(a)
    let rb = UnsafeRawPointer(b)
    var acc = SIMD8<Float>()
    var k = 0
    while k + 8 <= count {
      let offset = k * MemoryLayout<Float>.stride
      acc +=
        ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
        * rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
      k += 8
    }
    var r = acc.sum()
    while k < count {
      r += a[k] * b[k]
      k += 1
    }
    return r
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
    let sampled = Double(max(1, sampledFrames))
    consumer?.consume(
      AirFeatures(
        startFrame: windowStart, frameCount: count, levelDB: sumLevel / c, lowEnergyShare: Double(low) / c,
        syllableModulationDB: modulation, flatness: sumFlatness / sampled, flux: sumFlux / Double(max(1, fluxFrames)),
        harmonicity: sumHarmonicity / sampled, peaksPerSecond: Double(peaksInWindow) * framesPerSecond / c))
    windowStart = frames
    sumLevel = 0
    sumFlatness = 0
    sumFlux = 0
    sumHarmonicity = 0
    sampledFrames = 0
    fluxFrames = 0
    peaksInWindow = 0
  }
}
