import Foundation

/// Turns peaks into pair hashes.
///
/// Reference side: each anchor peak is paired with the `referenceFanOut` nearest later peaks inside the target zone
/// (1…`maxPairFrames` frames later, within ±`maxPairSemitones`). Query side: the broadcast may be sped up or slowed
/// down, so the query is hashed once per `SpeedHypothesis`, with the peaks' times (and, for a resampled broadcast,
/// pitches) mapped back to the reference's scale before quantization; and every peak in the zone is paired, because
/// the query keeps more peaks than the reference did.
struct PairHasher: Sendable {
  let layout: HashLayout
  let parameters: FingerprintParameters
  private let binToSemitone: Float
  private let semitoneOffset: Float

  init(parameters p: FingerprintParameters) {
    parameters = p
    layout = HashLayout(p)
    let binHz = Double(p.sampleRateHz) / Double(p.fftSizeSamples)
    // pitch(bin) = 12·log2(bin·binHz / minFrequency) = 12·log2(bin) + offset
    binToSemitone = 12
    semitoneOffset = Float(12 * log2(binHz / p.minFrequencyHz))
  }

  /// Semitones above `minFrequencyHz` of a (fractional) FFT bin.
  @inline(__always)
  func pitch(ofBin bin: Float) -> Float { binToSemitone * log2(bin) + semitoneOffset }

  /// The time from `anchor` to `target` in the hash's whole frames: their refined times' difference, rounded, when
  /// the fingerprint interpolates peak times.
  @inline(__always)
  func frames(from anchor: Peak, to target: Peak) -> Int32 {
    parameters.interpolatePeakTimes
      ? Int32(target.frames(after: anchor).rounded()) : target.frame - anchor.frame
  }

  /// The reference hashes of a signature, in anchor order.
  func referenceHashes(of peaks: [Peak]) -> [ReferenceHash] {
    let pitches = peaks.map { pitch(ofBin: $0.bin) }
    let fanOut = parameters.referenceFanOut
    let maxFrames = Int32(parameters.maxPairFrames)
    let maxInterval = Float(parameters.maxPairSemitones)
    var out = [ReferenceHash]()
    out.reserveCapacity(peaks.count * fanOut)
    for i in 0..<peaks.count {
      var made = 0
      var j = i + 1
      while j < peaks.count && made < fanOut {
        let frameDistance = peaks[j].frame - peaks[i].frame
        if frameDistance > maxFrames { break }
        let dt = frames(from: peaks[i], to: peaks[j])
        let interval = pitches[j] - pitches[i]
        // Peaks of the same frame never pair, whatever their refined times: the query side pairs only across frames.
        if frameDistance >= 1 && dt >= 1 && dt <= maxFrames && abs(interval) <= maxInterval,
          let h = layout.hash(anchorPitch: pitches[i], interval: interval, frames: Int(dt))
        {
          out.append(ReferenceHash(hash: h, frame: UInt32(peaks[i].frame)))
          made += 1
        }
        j += 1
      }
    }
    return out
  }
}

/// A guess at how the broadcast's speed relates to the reference: `speed` is reference seconds per broadcast second
/// (1.04 = played 4 % fast); `pitchShifted` says whether pitch moved with tempo (resampled, as a turntable or a
/// sped-up playout does) or stayed (time-stretched).
struct SpeedHypothesis: Sendable, Equatable {
  var speed: Double
  var pitchShifted: Bool
  /// Semitones to subtract from a broadcast pitch to get the reference's.
  var pitchShift: Float

  init(speed: Double, pitchShifted: Bool) {
    self.speed = speed
    self.pitchShifted = pitchShifted
    pitchShift = pitchShifted ? Float(12 * log2(speed)) : 0
  }

  /// The grid searched: every `step` from 1 − `maxDeviation` to 1 + `maxDeviation`, time-stretched; and the same
  /// speeds but 1.0, resampled. 1.0 comes first.
  static func grid(maxDeviation: Double, step: Double) -> [SpeedHypothesis] {
    let n = max(0, Int((maxDeviation / step).rounded(.toNearestOrAwayFromZero)))
    var speeds = [1.0]
    for k in 1...max(1, n) where n > 0 {
      speeds.append(1 + Double(k) * step)
      speeds.append(1 - Double(k) * step)
    }
    var grid = speeds.map { SpeedHypothesis(speed: $0, pitchShifted: false) }
    grid += speeds.dropFirst().map { SpeedHypothesis(speed: $0, pitchShifted: true) }
    return grid
  }
}
