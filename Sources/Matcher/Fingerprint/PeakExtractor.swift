import Foundation

/// Finds spectral peaks: points that are the maximum of their time-frequency neighbourhood, ranked by how far they
/// stand above their bin's running mean (spectral whitening), and thinned to a fixed number per block.
///
/// Streaming: a frame's peaks are known once `peakNeighborhoodFrames` later frames have arrived, and a block's peaks
/// are emitted when its last frame is decided. One thread at a time (the owner of the chain).
final class PeakExtractor: SpectrumFrameConsumer {
  private let bins: Int
  private let firstBin: Int
  private let span: Int  // frames on each side
  private let halfWidth: Int  // bins on each side
  private let blockFrames: Int
  private let peaksPerBlock: Int
  private let floorPower: Float
  private let meanRate: Float
  private let interpolateTimes: Bool
  private let history: Int
  // Ring of the last `history` frames: power, and the maximum over ±halfWidth bins.
  private var power: [Float]
  private var freqMax: [Float]
  private var mean: [Float]
  private var scratchPrefix: [Float]
  private var scratchSuffix: [Float]
  private var padded: [Float]
  private var newestFrame = -1
  private var decidedFrame = -1
  private var blockCandidates: [Peak] = []
  private var currentBlock = 0
  private var out: [Peak] = []
  private weak var consumer: (any PeakConsumer)?

  init(
    parameters p: FingerprintParameters, firstBin: Int, binCount: Int, peaksPerBlock: Int, consumer: any PeakConsumer
  ) {
    bins = binCount
    self.firstBin = firstBin
    span = p.peakNeighborhoodFrames
    halfWidth = p.peakNeighborhoodBins
    blockFrames = p.peakBlockFrames
    self.peaksPerBlock = peaksPerBlock
    floorPower = Float(pow(10, p.silenceFloorDB / 10))
    meanRate = Float(1 / max(1, p.whiteningSeconds * p.framesPerSecond))
    interpolateTimes = p.interpolatePeakTimes
    history = 2 * span + 1
    power = [Float](repeating: 0, count: history * binCount)
    freqMax = [Float](repeating: 0, count: history * binCount)
    mean = [Float](repeating: 0, count: binCount)
    scratchPrefix = [Float](repeating: 0, count: binCount + 2 * halfWidth + 1)
    scratchSuffix = [Float](repeating: 0, count: binCount + 2 * halfWidth + 1)
    padded = [Float](repeating: 0, count: binCount + 2 * halfWidth + 1)
    blockCandidates.reserveCapacity(256)
    out.reserveCapacity(64)
    self.consumer = consumer
  }

  func consume(frame: Int, power framePower: UnsafeBufferPointer<Float>) {
    precondition(frame == newestFrame + 1, "frames must arrive in order")
    newestFrame = frame
    let slot = (frame % history) * bins
    power.withUnsafeMutableBufferPointer { pw in
      mean.withUnsafeMutableBufferPointer { mn in
        let rate = frame == 0 ? 1 : meanRate
        for k in 0..<bins {
          let v = framePower[k]
          pw[slot + k] = v
          mn[k] += rate * (v - mn[k])
        }
      }
    }
    computeFrequencyMax(slot: slot)
    while decidedFrame + 1 <= frame - span {
      decide(decidedFrame + 1, lastAvailable: frame)
    }
  }

  func flush() {
    while decidedFrame + 1 <= newestFrame {
      decide(decidedFrame + 1, lastAvailable: newestFrame)
    }
    emitBlock()
    consumer?.flush()
  }

  /// Sliding maximum over ±halfWidth bins (van Herk / Gil-Werman: three comparisons per bin), on a zero-padded copy
  /// of the frame.
  private func computeFrequencyMax(slot: Int) {
    let w = 2 * halfWidth + 1
    let n = bins + 2 * halfWidth
    power.withUnsafeBufferPointer { pw in
      freqMax.withUnsafeMutableBufferPointer { fm in
        scratchPrefix.withUnsafeMutableBufferPointer { pre in
          scratchSuffix.withUnsafeMutableBufferPointer { suf in
            padded.withUnsafeMutableBufferPointer { pad in
              for k in 0..<bins { pad[halfWidth + k] = pw[slot + k] }
              var i = 0
              while i < n {
                let end = min(i + w, n)
                var m: Float = 0
                for j in i..<end {
                  m = max(m, pad[j])
                  pre[j] = m
                }
                m = 0
                var j = end - 1
                while j >= i {
                  m = max(m, pad[j])
                  suf[j] = m
                  j -= 1
                }
                i = end
              }
              for k in 0..<bins {
                fm[slot + k] = max(suf[k], pre[k + w - 1])
              }
            }
          }
        }
      }
    }
  }

  private func decide(_ frame: Int, lastAvailable: Int) {
    decidedFrame = frame
    let block = frame / blockFrames
    if block != currentBlock {
      emitBlock()
      currentBlock = block
    }
    let slot = (frame % history) * bins
    let lo = max(0, frame - span)
    let hi = min(lastAvailable, frame + span)
    power.withUnsafeBufferPointer { pw in
      freqMax.withUnsafeBufferPointer { fm in
        mean.withUnsafeBufferPointer { mn in
          for k in 1..<(bins - 1) {
            let v = pw[slot + k]
            // The maximum of its neighbourhood; on a plateau across bins, only its lowest bin.
            guard v > floorPower, v >= fm[slot + k], v > pw[slot + k - 1] else { continue }
            var isPeak = true
            var other = lo
            while other <= hi {
              if other != frame {
                let o = fm[(other % history) * bins + k]
                // Ties go to the earlier frame so a flat plateau yields one peak.
                if o > v || (o == v && other < frame) {
                  isPeak = false
                  break
                }
              }
              other += 1
            }
            guard isPeak else { continue }
            let delta = Self.vertexOffset(before: pw[slot + k - 1], at: v, after: pw[slot + k + 1])
            let strength = 10 * log10(v / max(mn[k], 1e-20))
            // The same parabola across the neighbouring frames places the peak between frames.
            var offset: Float = 0
            if interpolateTimes && frame > 0 && frame < lastAvailable {
              offset = Self.vertexOffset(
                before: pw[((frame - 1) % history) * bins + k], at: v, after: pw[((frame + 1) % history) * bins + k])
            }
            blockCandidates.append(
              Peak(frame: Int32(frame), bin: Float(firstBin + k) + delta, strength: strength, frameOffset: offset))
          }
        }
      }
    }
  }

  /// Where the vertex of the parabola through three log powers lies, from the middle one (−0.5…0.5); 0 when they
  /// do not curve down.
  @inline(__always)
  private static func vertexOffset(before: Float, at centre: Float, after: Float) -> Float {
    let a = log(max(before, 1e-20))
    let b = log(centre)
    let c = log(max(after, 1e-20))
    let curvature = a - 2 * b + c
    return curvature < 0 ? min(0.5, max(-0.5, 0.5 * (a - c) / curvature)) : 0
  }

  private func emitBlock() {
    if blockCandidates.count > peaksPerBlock {
      blockCandidates.sort { $0.strength > $1.strength }
      blockCandidates.removeSubrange(peaksPerBlock...)
    }
    blockCandidates.sort { $0.frame != $1.frame ? $0.frame < $1.frame : $0.bin < $1.bin }
    consumer?.consume(peaks: blockCandidates[...], throughFrame: decidedFrame)
    blockCandidates.removeAll(keepingCapacity: true)
  }
}
