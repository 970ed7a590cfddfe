import Foundation
import TestSupport
import Testing

@testable import Matcher

/// Keeps the peaks a `PeakExtractor` emits, batch by batch.
private final class PeakCapture: PeakConsumer {
  var batches: [[Peak]] = []
  var throughFrames: [Int] = []
  var flushes = 0
  var peaks: [Peak] { batches.flatMap { $0 } }
  func consume(peaks: ArraySlice<Peak>, throughFrame: Int) {
    batches.append(Array(peaks))
    throughFrames.append(throughFrame)
  }
  func flush() { flushes += 1 }
}

@Suite("PeakExtractor")
struct PeakExtractorTests {
  static let firstBin = 20
  static let binCount = 120
  /// Below the silence floor (-75 dB): never a peak.
  static let background: Float = 1e-10

  /// A spot of power in the spectrogram.
  struct Spot {
    var frame: Int
    var bin: Int
    var power: Float
  }

  /// Feeds `frames` frames of background with `spots` on it, and flushes unless told not to.
  private static func extract(
    _ spots: [Spot], frames: Int = 64, peaksPerBlock: Int = 10, parameters: FingerprintParameters = .init(),
    flush: Bool = true, shape: ((Int, Int) -> Float?)? = nil
  ) -> (PeakCapture, PeakExtractor) {
    let capture = PeakCapture()
    let extractor = PeakExtractor(
      parameters: parameters, firstBin: firstBin, binCount: binCount, peaksPerBlock: peaksPerBlock, consumer: capture)
    var power = [Float](repeating: background, count: binCount)
    for frame in 0..<frames {
      for k in 0..<binCount { power[k] = shape?(frame, k) ?? background }
      for s in spots where s.frame == frame { power[s.bin] = s.power }
      power.withUnsafeBufferPointer { extractor.consume(frame: frame, power: $0) }
    }
    if flush { extractor.flush() }
    return (capture, extractor)
  }

  @Test("A lone bright point is one peak, at its frame and bin")
  func lonePoint() {
    let (capture, _) = Self.extract([Spot(frame: 20, bin: 50, power: 1e-3)])
    #expect(capture.peaks.map(\.frame) == [20])
    #expect(capture.peaks.map(\.bin) == [Float(Self.firstBin + 50)])
    #expect(capture.flushes == 1)
  }

  @Test("Two points inside one neighbourhood leave only the larger; just outside it, both are peaks")
  func neighbourhood() {
    let p = FingerprintParameters()
    let (near, _) = Self.extract([
      Spot(frame: 20, bin: 50, power: 1e-3),
      Spot(frame: 20 + p.peakNeighborhoodFrames, bin: 50 + p.peakNeighborhoodBins, power: 5e-4),
    ])
    #expect(near.peaks.map(\.frame) == [20])
    let (apartInTime, _) = Self.extract([
      Spot(frame: 20, bin: 50, power: 1e-3), Spot(frame: 21 + p.peakNeighborhoodFrames, bin: 50, power: 5e-4),
    ])
    #expect(apartInTime.peaks.map(\.frame) == [20, Int32(21 + p.peakNeighborhoodFrames)])
    let (apartInFrequency, _) = Self.extract([
      Spot(frame: 20, bin: 50, power: 1e-3), Spot(frame: 20, bin: 51 + p.peakNeighborhoodBins, power: 5e-4),
    ])
    #expect(
      apartInFrequency.peaks.map(\.bin) == [
        Float(Self.firstBin + 50), Float(Self.firstBin + 51 + p.peakNeighborhoodBins),
      ])
  }

  @Test("Equal powers in neighbouring frames (a plateau in time) make one peak, at the earlier frame")
  func plateauInTime() {
    let (capture, _) = Self.extract([Spot(frame: 20, bin: 50, power: 1e-3), Spot(frame: 22, bin: 50, power: 1e-3)])
    #expect(capture.peaks.map(\.frame) == [20])
  }

  @Test("The first and last bins never make peaks (they cannot be interpolated)")
  func edgeBins() {
    let (capture, _) = Self.extract([
      Spot(frame: 10, bin: 0, power: 1e-3), Spot(frame: 30, bin: Self.binCount - 1, power: 1e-3),
    ])
    #expect(capture.peaks.isEmpty)
  }

  @Test("Power below silenceFloorDB never makes a peak; just above it does")
  func silenceFloor() {
    let floor = Float(pow(10, FingerprintParameters().silenceFloorDB / 10))
    #expect(Self.extract([Spot(frame: 20, bin: 50, power: floor * 0.5)]).0.peaks.isEmpty)
    #expect(Self.extract([Spot(frame: 20, bin: 50, power: floor * 2)]).0.peaks.count == 1)
  }

  @Test("A peak between two bins is placed between them by parabolic interpolation")
  func interpolation() throws {
    // A Gaussian in power is a parabola in log power: interpolation recovers its centre exactly.
    for centre in [50.3, 50.0, 49.6] {
      let (capture, _) = Self.extract([], frames: 40) { frame, k in
        guard frame == 20, abs(Double(k) - centre) < 4 else { return nil }
        return Float(1e-3 * exp(-pow(Double(k) - centre, 2) / 2))
      }
      let peak = try #require(capture.peaks.first)
      #expect(capture.peaks.count == 1)
      #expect(abs(Double(peak.bin) - (Double(Self.firstBin) + centre)) < 1e-3, "centre \(centre)")
    }
  }

  @Test("A peak between two frames is placed between them by parabolic interpolation across frames")
  func timeInterpolation() throws {
    // A Gaussian in time, too, is a parabola in log power.
    for centre in [20.3, 20.0, 19.6] {
      let (capture, _) = Self.extract([], frames: 40) { frame, k in
        guard k == 50, abs(Double(frame) - centre) < 4 else { return nil }
        return Float(1e-3 * exp(-pow(Double(frame) - centre, 2) / 2))
      }
      let peak = try #require(capture.peaks.first)
      #expect(capture.peaks.count == 1)
      #expect(Int(peak.frame) == Int(centre.rounded()))
      #expect(abs(Double(peak.frame) + Double(peak.frameOffset) - centre) < 1e-3, "centre \(centre)")
    }
  }

  @Test("Without interpolatePeakTimes (a catalog made before it), peaks sit on whole frames")
  func wholeFrames() throws {
    var parameters = FingerprintParameters()
    parameters.interpolatePeakTimes = false
    let (capture, _) = Self.extract([], frames: 40, parameters: parameters) { frame, k in
      guard k == 50, abs(Double(frame) - 20.3) < 4 else { return nil }
      return Float(1e-3 * exp(-pow(Double(frame) - 20.3, 2) / 2))
    }
    let peak = try #require(capture.peaks.first)
    #expect(peak.frame == 20 && peak.frameOffset == 0)
  }

  @Test("Strength is measured against the bin's running mean: the same peak is weaker in a bin that was loud")
  func whitening() throws {
    let loudBin = 30
    let quietBin = 80
    let (capture, _) = Self.extract(
      [Spot(frame: 40, bin: loudBin, power: 1e-3), Spot(frame: 40, bin: quietBin, power: 1e-3)], frames: 64
    ) {
      frame, k in k == loudBin && frame < 30 ? 5e-4 : nil
    }
    let loud = try #require(capture.peaks.first { $0.frame == 40 && $0.bin == Float(Self.firstBin + loudBin) })
    let quiet = try #require(capture.peaks.first { $0.bin == Float(Self.firstBin + quietBin) })
    #expect(quiet.strength > loud.strength + 3)
    #expect(loud.strength > 0)
  }

  @Test(
    "Each block keeps its peaksPerBlock strongest peaks, in frame-then-bin order, one batch per block, empty or not")
  func thinning() {
    let p = FingerprintParameters()
    // Ten spots in block 0, in bins of their own (so that no bin has a history), with distinct powers; three
    // survive: the three loudest.
    var spots: [Spot] = []
    for n in 0..<10 {
      let frame = 1 + n % (p.peakBlockFrames - 1)
      spots.append(Spot(frame: frame, bin: 5 + 11 * n, power: 1e-5 * Float((n * 7) % 10 + 1)))
    }
    // And one in block 2.
    spots.append(Spot(frame: 2 * p.peakBlockFrames + 3, bin: 50, power: 1e-4))
    let (capture, _) = Self.extract(spots, peaksPerBlock: 3)
    // Blocks 0 and 2 carry peaks; block 1 and any later block before the end are delivered empty, so that time
    // advances through silence.
    let nonEmpty = capture.batches.filter { !$0.isEmpty }
    #expect(nonEmpty.count == 2)
    #expect(capture.batches.count >= 3 && capture.batches[1].isEmpty)
    let loudest = spots.prefix(10).sorted { $0.power > $1.power }.prefix(3)
      .sorted { ($0.frame, $0.bin) < ($1.frame, $1.bin) }
    #expect(nonEmpty.first?.map(\.frame) == loudest.map { Int32($0.frame) })
    #expect(nonEmpty.first?.map(\.bin) == loudest.map { Float(Self.firstBin + $0.bin) })
    #expect(nonEmpty.last?.map(\.frame) == [Int32(2 * p.peakBlockFrames + 3)])
  }

  @Test("A block's peaks come out once its last frame is decided, peakNeighborhoodFrames later; flush gives the rest")
  func latency() {
    let p = FingerprintParameters()
    let lastFrameOfBlock0 = p.peakBlockFrames - 1
    // Frame lastFrameOfBlock0 is decided once peakNeighborhoodFrames more frames have arrived.
    let needed = lastFrameOfBlock0 + p.peakNeighborhoodFrames + 1
    let spots = [Spot(frame: lastFrameOfBlock0, bin: 50, power: 1e-3), Spot(frame: needed - 1, bin: 90, power: 1e-3)]
    let (before, _) = Self.extract(spots, frames: needed - 1, flush: false)
    #expect(before.batches.isEmpty)
    let (after, extractor) = Self.extract(spots, frames: needed, flush: false)
    #expect(after.batches.count == 1)
    #expect(after.peaks.map(\.frame) == [Int32(lastFrameOfBlock0)])
    #expect(after.throughFrames == [lastFrameOfBlock0])
    extractor.flush()
    #expect(after.peaks.map(\.frame) == [Int32(lastFrameOfBlock0), Int32(needed - 1)])
    #expect(after.throughFrames == [lastFrameOfBlock0, needed - 1])
    #expect(after.flushes == 1)
  }

  @Test("A stream that ends on a block's last frame gets no empty batch at flush")
  func flushAfterWholeBlock() {
    let p = FingerprintParameters()
    let (capture, _) = Self.extract([], frames: 4 * p.peakBlockFrames)
    #expect(capture.throughFrames == (1...4).map { $0 * p.peakBlockFrames - 1 })
    #expect(capture.flushes == 1)
  }

  @Test(
    "On random spectra with plateaus, the peaks are exactly the points that the definition of a peak picks",
    arguments: [(1, 1, 9), (2, 3, 17), (10, 6, 120), (12, 7, 453), (5, 2, 64), (3, 4, 8)])
  func matchesTheDefinition(halfWidth: Int, span: Int, bins: Int) throws {
    var p = FingerprintParameters()
    p.peakNeighborhoodBins = halfWidth
    p.peakNeighborhoodFrames = span
    var generator = SeededGenerator(seed: UInt64(1000 * halfWidth + 10 * span + bins))
    let frames = 800
    // Few levels, so that equal powers (plateaus across bins and across frames) are common; some below the floor.
    let levels: [Float] = [0, 1e-9, 1e-4, 2e-4, 3e-4, 5e-4]
    let spectra = (0..<frames).map { _ in (0..<bins).map { _ in levels.randomElement(using: &generator)! } }
    let capture = PeakCapture()
    let extractor = PeakExtractor(
      parameters: p, firstBin: Self.firstBin, binCount: bins, peaksPerBlock: 100_000, consumer: capture)
    for (frame, power) in spectra.enumerated() {
      power.withUnsafeBufferPointer { extractor.consume(frame: frame, power: $0) }
    }
    extractor.flush()

    // The definition: louder than the floor and than the bin below; at least as loud as every bin within halfWidth
    // in its frame; louder than those of the earlier frames within span, and at least as loud as the later ones'.
    let floorPower = Float(pow(10, p.silenceFloorDB / 10))
    func neighbourhoodMax(_ frame: Int, _ k: Int) -> Float {
      spectra[frame][max(0, k - halfWidth)...min(bins - 1, k + halfWidth)].max()!
    }
    var expected: [(frame: Int, bin: Int)] = []
    for frame in 0..<frames {
      for k in 1..<(bins - 1) {
        let v = spectra[frame][k]
        guard v > floorPower, v > spectra[frame][k - 1], v >= neighbourhoodMax(frame, k) else { continue }
        let earlier = (max(0, frame - span)..<frame).allSatisfy { neighbourhoodMax($0, k) < v }
        let later = (frame + 1..<min(frames, frame + span + 1)).allSatisfy { neighbourhoodMax($0, k) <= v }
        if earlier && later { expected.append((frame, k)) }
      }
    }
    let found = capture.peaks
    #expect(expected.count >= 10)
    try #require(found.count == expected.count)
    for (peak, want) in zip(found, expected) {
      #expect(Int(peak.frame) == want.frame)
      #expect(abs(peak.bin - Float(Self.firstBin + want.bin)) <= 0.5)
    }
  }
}
