import Foundation

/// How a pair of peaks is packed into a hash: anchor pitch, interval to the target, and their distance in frames.
///
/// Pitch is measured in semitones above `minFrequencyHz`, so that a resampled (pitch-shifted) broadcast moves every
/// peak by the same amount and the interval between two peaks does not change.
struct HashLayout: Sendable, Equatable {
  let anchorSteps: Int
  let intervalSteps: Int
  let anchorBits: Int
  let intervalBits: Int
  let frameBits = 6
  let anchorStep: Float
  let intervalStep: Float
  let maxInterval: Float

  init(_ p: FingerprintParameters) {
    let range = 12 * log2(p.maxFrequencyHz / p.minFrequencyHz)
    anchorSteps = Int((range / p.anchorStepSemitones).rounded(.up)) + 1
    intervalSteps = Int((2 * p.maxPairSemitones / p.intervalStepSemitones).rounded(.up)) + 1
    anchorBits = Self.bits(anchorSteps)
    intervalBits = Self.bits(intervalSteps)
    anchorStep = Float(p.anchorStepSemitones)
    intervalStep = Float(p.intervalStepSemitones)
    maxInterval = Float(p.maxPairSemitones)
  }

  var totalBits: Int { anchorBits + intervalBits + frameBits }

  private static func bits(_ count: Int) -> Int { max(1, Int.bitWidth - (count - 1).leadingZeroBitCount) }

  /// The hash of a pair, or nil when the pair falls outside the hashable range.
  /// - Parameters:
  ///   - anchorPitch: semitones above the minimum frequency of the first peak.
  ///   - interval: semitones from the first peak to the second.
  ///   - frames: distance in frames, 1…63.
  @inline(__always)
  func hash(anchorPitch: Float, interval: Float, frames: Int) -> UInt32? {
    guard frames >= 1, frames < 64, anchorPitch >= 0, abs(interval) <= maxInterval else { return nil }
    let a = Int(anchorPitch / anchorStep)
    let i = Int(((interval + maxInterval) / intervalStep))
    guard a < anchorSteps, i < intervalSteps else { return nil }
    return UInt32(truncatingIfNeeded: (a << (intervalBits + frameBits)) | (i << frameBits) | frames)
  }
}
