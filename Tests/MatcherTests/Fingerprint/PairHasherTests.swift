import Foundation
import Testing

@testable import Matcher

@Suite("PairHasher")
struct PairHasherTests {
  let parameters = FingerprintParameters()
  var hasher: PairHasher { PairHasher(parameters: parameters) }
  /// Hz per FFT bin.
  var binHz: Double { Double(parameters.sampleRateHz) / Double(parameters.fftSizeSamples) }

  func bin(ofHz hz: Double) -> Float { Float(hz / binHz) }

  @Test("Pitch is semitones above minFrequencyHz: 0 there, 12 an octave up, 19.02 a twelfth up")
  func pitch() {
    let f0 = parameters.minFrequencyHz
    #expect(abs(hasher.pitch(ofBin: bin(ofHz: f0))) < 1e-4)
    #expect(abs(hasher.pitch(ofBin: bin(ofHz: 2 * f0)) - 12) < 1e-4)
    #expect(abs(hasher.pitch(ofBin: bin(ofHz: 3 * f0)) - Float(12 * log2(3.0))) < 1e-4)
  }

  /// The hash the reference side should make for a pair of peaks, from the layout.
  func expectedHash(_ a: Peak, _ b: Peak) -> UInt32? {
    hasher.layout.hash(
      anchorPitch: hasher.pitch(ofBin: a.bin), interval: hasher.pitch(ofBin: b.bin) - hasher.pitch(ofBin: a.bin),
      frames: Int(b.frame - a.frame))
  }

  @Test("Each anchor pairs with the referenceFanOut nearest later peaks, and the hash sits at the anchor's frame")
  func fanOut() throws {
    // Six peaks a frame apart, a semitone apart: every pair is in the target zone.
    let peaks = (0..<6).map { Peak(frame: Int32(10 + $0), bin: 100 * Float(pow(2, Double($0) / 12)), strength: 10) }
    let hashes = hasher.referenceHashes(of: peaks)
    let fanOut = parameters.referenceFanOut
    var expected: [ReferenceHash] = []
    for i in peaks.indices {
      for j in (i + 1)..<min(peaks.count, i + 1 + fanOut) {
        expected.append(
          ReferenceHash(hash: try #require(expectedHash(peaks[i], peaks[j])), frame: UInt32(peaks[i].frame)))
      }
    }
    #expect(hashes == expected)
    #expect(hashes.filter { $0.frame == 10 }.count == fanOut)
  }

  @Test("A target more than maxPairFrames later is not paired; one exactly that far is")
  func targetZoneInTime() {
    let far = Int32(parameters.maxPairFrames)
    #expect(
      hasher.referenceHashes(of: [Peak(frame: 0, bin: 100, strength: 1), Peak(frame: far, bin: 110, strength: 1)]).count
        == 1)
    #expect(
      hasher.referenceHashes(of: [Peak(frame: 0, bin: 100, strength: 1), Peak(frame: far + 1, bin: 110, strength: 1)])
        .isEmpty)
  }

  @Test("Peaks too far apart in pitch, or in the same frame, are skipped without using up the fan-out")
  func targetZoneInPitch() throws {
    let anchor = Peak(frame: 0, bin: 100, strength: 1)
    let sameFrame = Peak(frame: 0, bin: 120, strength: 1)
    let tooHigh = Peak(frame: 1, bin: 100 * Float(pow(2, (parameters.maxPairSemitones + 1) / 12)), strength: 1)
    let targets = (2...4).map { Peak(frame: Int32($0), bin: 90 + Float($0), strength: 1) }
    let hashes = hasher.referenceHashes(of: [anchor, sameFrame, tooHigh] + targets).filter { $0.frame == 0 }
    // The anchor's pairs are with the three in-zone targets; the same-frame peak (an anchor of its own) pairs too.
    let fromAnchor = try targets.map { try #require(expectedHash(anchor, $0)) }
    #expect(hashes.map(\.hash).filter { fromAnchor.contains($0) }.count == 3)
  }

  @Test("A pair's time is its refined times' difference, rounded; whole frames without interpolatePeakTimes")
  func refinedTimes() throws {
    let anchor = Peak(frame: 10, bin: 100, strength: 1, frameOffset: 0.4)
    let target = Peak(frame: 13, bin: 110, strength: 1, frameOffset: -0.3)  // 2.3 frames after the anchor
    #expect(hasher.frames(from: anchor, to: target) == 2)
    let refined = try #require(hasher.referenceHashes(of: [anchor, target]).first)
    let expected = hasher.layout.hash(
      anchorPitch: hasher.pitch(ofBin: 100), interval: hasher.pitch(ofBin: 110) - hasher.pitch(ofBin: 100), frames: 2)
    #expect(refined.hash == expected)
    #expect(refined.frame == 10)
    var legacy = parameters
    legacy.interpolatePeakTimes = false
    let whole = PairHasher(parameters: legacy)
    #expect(whole.frames(from: anchor, to: target) == 3)
    #expect(whole.referenceHashes(of: [anchor, target]).first?.hash == expectedHash(anchor, target))
  }

  @Test("A resampled pair hashes back to the reference's hash under the matching speed hypothesis")
  func resampledPairMatches() throws {
    let speed = 1.04
    let hypothesis = SpeedHypothesis(speed: speed, pitchShifted: true)
    let anchor = Peak(frame: 100, bin: 100, strength: 1)
    let target = Peak(frame: 125, bin: 140, strength: 1)
    let reference = try #require(expectedHash(anchor, target))
    // Played 4 % fast and resampled: frames come 1/1.04 as far apart, frequencies are 1.04 times higher.
    let queryFrames = Double(target.frame - anchor.frame) / speed
    let anchorPitch = hasher.pitch(ofBin: anchor.bin * Float(speed))
    let interval = hasher.pitch(ofBin: target.bin * Float(speed)) - anchorPitch
    let frames = Int((queryFrames.rounded() * speed).rounded())
    #expect(
      hasher.layout.hash(anchorPitch: anchorPitch - hypothesis.pitchShift, interval: interval, frames: frames)
        == reference)
    // Without the pitch correction the anchor lands in another cell.
    #expect(hasher.layout.hash(anchorPitch: anchorPitch, interval: interval, frames: frames) != reference)
  }

  @Test("The speed grid: 1.0 first, every step either way, time-stretched then resampled")
  func speedGrid() {
    let grid = SpeedHypothesis.grid(maxDeviation: 0.06, step: 0.02)
    #expect(grid.first == SpeedHypothesis(speed: 1, pitchShifted: false))
    let stretched = grid.filter { !$0.pitchShifted }.map(\.speed).sorted()
    let resampled = grid.filter(\.pitchShifted).map(\.speed).sorted()
    let expected = [0.94, 0.96, 0.98, 1.0, 1.02, 1.04, 1.06]
    #expect(stretched.count == expected.count)
    #expect(zip(stretched, expected).allSatisfy { abs($0 - $1) < 1e-9 })
    #expect(resampled.count == expected.count - 1)
    #expect(!resampled.contains(1.0))
    for h in grid {
      #expect(abs(Double(h.pitchShift) - (h.pitchShifted ? 12 * log2(h.speed) : 0)) < 1e-5)
    }
    #expect(SpeedHypothesis.grid(maxDeviation: 0, step: 0.02) == [SpeedHypothesis(speed: 1, pitchShifted: false)])
  }
}
