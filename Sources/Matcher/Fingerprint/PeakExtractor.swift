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
  // Ring of the last `history` frames: power, and the maximum over ±halfWidth bins; each with `groupBins` more floats
  // after the last frame, which the decision's last group of bins may read.
  private var power: [Float]
  private var freqMax: [Float]
  private var mean: [Float]
  /// The maxima of runs of bins that `computeFrequencyMax` doubles, pass by pass, from one buffer into the other.
  private var runs: [Float]
  private var spareRuns: [Float]
  private var padded: [Float]
  /// Where each frame of the one being decided and its neighbours lies in the rings, from the earliest.
  private let neighbourSlots: UnsafeMutablePointer<Int>
  private var newestFrame = -1
  private var decidedFrame = -1
  private var blockCandidates: [Peak] = []
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
    power = [Float](repeating: 0, count: history * binCount + Self.groupBins)
    freqMax = [Float](repeating: 0, count: history * binCount + Self.groupBins)
    mean = [Float](repeating: 0, count: binCount)
    runs = [Float](repeating: 0, count: binCount + 2 * halfWidth + 1)
    spareRuns = [Float](repeating: 0, count: binCount + 2 * halfWidth + 1)
    padded = [Float](repeating: 0, count: binCount + 2 * halfWidth + 1)
    neighbourSlots = .allocate(capacity: history)
    blockCandidates.reserveCapacity(256)
    self.consumer = consumer
  }

  deinit { neighbourSlots.deallocate() }

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
    // The last block, cut short by the end of the stream.
    if (decidedFrame + 1) % blockFrames != 0 { emitBlock() }
    consumer?.flush()
  }

  /// Sliding maximum over ±halfWidth bins, on a zero-padded copy of the frame, by doubling: each pass takes the
  /// maximum of two runs half as long, so that after it `run[i]` is the maximum of `padded[i ..< i + width]`; the
  /// window is then two such runs that overlap. Every pass is a plain loop over the frame that the compiler
  /// vectorises (van Herk's three comparisons per bin each depend on the one before, and do not).
  private func computeFrequencyMax(slot: Int) {
    let w = 2 * halfWidth + 1
    let n = bins + 2 * halfWidth
    power.withUnsafeBufferPointer { pw in
      freqMax.withUnsafeMutableBufferPointer { fm in
        runs.withUnsafeMutableBufferPointer { a in
          spareRuns.withUnsafeMutableBufferPointer { b in
            padded.withUnsafeMutableBufferPointer { pad in
              let padBase = pad.baseAddress!
              (padBase + halfWidth).update(from: pw.baseAddress! + slot, count: bins)
              var source = UnsafePointer(padBase)
              var target = a.baseAddress!
              var spare = b.baseAddress!
              var width = 1
              while 2 * width <= w {
                for i in 0..<(n - 2 * width + 1) { target[i] = max(source[i], source[i + width]) }
                source = UnsafePointer(target)
                swap(&target, &spare)
                width *= 2
              }
              let out = fm.baseAddress! + slot
              for k in 0..<bins { out[k] = max(source[k], source[k + w - width]) }
            }
          }
        }
      }
    }
  }

  private func decide(_ frame: Int, lastAvailable: Int) {
    decidedFrame = frame
    let slot = (frame % history) * bins
    let lo = max(0, frame - span)
    let hi = min(lastAvailable, frame + span)
    for other in lo...hi { neighbourSlots[other - lo] = (other % history) * bins }
    let audible = SIMD8<Float>(repeating: floorPower)
    power.withUnsafeBufferPointer { pw in
      freqMax.withUnsafeBufferPointer { fm in
        mean.withUnsafeBufferPointer { mn in
          let p = pw.baseAddress! + slot
          let f = fm.baseAddress! + slot
          // The maximum of its neighbourhood across bins (on a plateau, only its lowest bin), then across frames, where
          // ties go to the earlier frame so that a flat plateau yields one peak. Eight bins at a time: about one bin
          // in twenty is the maximum across bins, and only those are checked across frames. Bins 1 ... bins − 2 can
          // be peaks (a peak is placed between its two neighbours); the last group of eight may reach past bin
          // bins − 2, into the ring's next frame or the padding after its last frame, and those lanes are dropped.
          var k = 1
          while k < bins - 1 {
            let v = UnsafeRawPointer(p + k).loadUnaligned(as: SIMD8<Float>.self)
            let before = UnsafeRawPointer(p + k - 1).loadUnaligned(as: SIMD8<Float>.self)
            let neighbourhood = UnsafeRawPointer(f + k).loadUnaligned(as: SIMD8<Float>.self)
            let found = (v .> audible) .& (v .>= neighbourhood) .& (v .> before)
            var lanes = UInt32(SIMD8<Int32>.zero.replacing(with: Self.laneBits, where: found).wrappedSum())
            if k + Self.groupBins > bins - 1 { lanes &= (1 << UInt32(bins - 1 - k)) - 1 }
            while lanes != 0 {
              let bin = k + lanes.trailingZeroBitCount
              lanes &= lanes - 1
              if isMaximumAcrossFrames(p[bin], bin: bin, frame: frame, lo: lo, hi: hi, fm) {
                addPeak(bin: bin, frame: frame, slot: slot, lastAvailable: lastAvailable, pw, mn)
              }
            }
            k += Self.groupBins
          }
        }
      }
    }
    if (frame + 1) % blockFrames == 0 { emitBlock() }
  }

  /// Bins the decision compares at a time.
  private static let groupBins = 8

  /// Bit `i` for lane `i`: a mask of eight comparisons as one integer.
  private static let laneBits = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)

  /// Whether `v`, bin `k` of `frame`, is the maximum of its bin's neighbourhood across frames `lo...hi`
  /// (`neighbourSlots`), ties going to the earlier frame.
  @inline(__always)
  private func isMaximumAcrossFrames(
    _ v: Float, bin k: Int, frame: Int, lo: Int, hi: Int, _ fm: UnsafeBufferPointer<Float>
  ) -> Bool {
    for other in lo...hi where other != frame {
      let o = fm[neighbourSlots[other - lo] + k]
      if o > v || (o == v && other < frame) { return false }
    }
    return true
  }

  /// Adds bin `k` of `frame`, a peak whose frame lies at `slot` in the rings, to the block's candidates, placed
  /// between bins and between frames.
  @inline(__always)
  private func addPeak(
    bin k: Int, frame: Int, slot: Int, lastAvailable: Int, _ pw: UnsafeBufferPointer<Float>,
    _ mn: UnsafeBufferPointer<Float>
  ) {
    let v = pw[slot + k]
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
