import Foundation
import Matcher

/// Derives the reference signature of a resampled (and optionally reversed) copy of a recording from the signature of
/// the recording itself, without audio: what the catalog-scale benchmark does for the copies beyond its audio-level
/// budget, at a small fraction of the cost of fingerprinting audio.
///
/// A copy played `factor` times faster has every peak at 1/`factor` of its time and `factor` times its frequency.
/// Peaks that leave the fingerprint's band are dropped (the audio-level copy would have other peaks there, from
/// content outside the base's band: the reason to derive from a base resampled close to the target), and each block
/// is thinned again to the reference's peaks per block, as the peak extractor does.
enum PeakLevelCopy {
  static func signature(of base: Signature, speedFactor factor: Double, reversed: Bool) -> Signature {
    precondition(factor > 0, "speed factor must be positive")
    let p = base.parameters
    let binHz = Double(p.sampleRateHz) / Double(p.fftSizeSamples)
    let firstBin = Float(max(1, Int((p.minFrequencyHz / binHz).rounded(.down))))
    let lastBin = Float(min(p.fftSizeSamples / 2 - 1, Int((p.maxFrequencyHz / binHz).rounded(.up))))
    let duration = base.durationSeconds
    let sampleCount = Int((Double(base.sampleCount) / factor).rounded())
    let frameCount = max(0, (sampleCount - p.fftSizeSamples) / p.hopSizeSamples + 1)

    var moved: [Peak] = []
    moved.reserveCapacity(base.peaks.count)
    for peak in base.peaks {
      let bin = peak.bin * Float(factor)
      guard bin >= firstBin, bin <= lastBin else { continue }
      var seconds = p.seconds(ofFrame: Double(peak.frame) + Double(peak.frameOffset))
      if reversed { seconds = duration - seconds }
      let time = p.frame(atSeconds: seconds / factor)
      let frame = p.interpolatePeakTimes ? time.rounded() : time.rounded(.down)
      guard frame >= 0, Int(frame) < frameCount else { continue }
      let offset = p.interpolatePeakTimes ? Float(time - frame) : 0
      moved.append(Peak(frame: Int32(frame), bin: bin, strength: peak.strength, frameOffset: offset))
    }
    moved.sort { $0.frame != $1.frame ? $0.frame < $1.frame : $0.bin < $1.bin }

    // Thin each block of `peakBlockFrames` frames to the strongest `referencePeaksPerBlock`, in frame order.
    var peaks: [Peak] = []
    peaks.reserveCapacity(moved.count)
    var start = 0
    while start < moved.count {
      let block = Int(moved[start].frame) / p.peakBlockFrames
      var end = start + 1
      while end < moved.count, Int(moved[end].frame) / p.peakBlockFrames == block { end += 1 }
      if end - start <= p.referencePeaksPerBlock {
        peaks.append(contentsOf: moved[start..<end])
      } else {
        let kept = moved[start..<end].sorted { $0.strength > $1.strength }.prefix(p.referencePeaksPerBlock)
        peaks.append(contentsOf: kept.sorted { $0.frame != $1.frame ? $0.frame < $1.frame : $0.bin < $1.bin })
      }
      start = end
    }

    let audibleStart = reversed ? duration - base.audibleEndSeconds : base.audibleStartSeconds
    let audibleEnd = reversed ? duration - base.audibleStartSeconds : base.audibleEndSeconds
    // Reversed, the recording's quiet tail becomes its opening and its opening its tail, which was not measured: such a
    // copy is taken as loud to its audible end.
    let loudEnd = reversed ? audibleEnd : base.loudEndSeconds
    return Signature(
      parameters: p, sampleCount: sampleCount, peaks: peaks, audibleStartSeconds: max(0, audibleStart / factor),
      audibleEndSeconds: max(0, audibleEnd / factor), loudEndSeconds: max(0, loudEnd / factor))
  }
}
