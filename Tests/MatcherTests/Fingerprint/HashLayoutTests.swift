import Foundation
import Testing

@testable import Matcher

@Suite("HashLayout")
struct HashLayoutTests {
  let layout = HashLayout(FingerprintParameters())

  @Test("Each field has just enough bits for its steps, and a hash fits in totalBits ≤ 24")
  func fieldSizes() {
    for (steps, bits) in [(layout.anchorSteps, layout.anchorBits), (layout.intervalSteps, layout.intervalBits)] {
      #expect(1 << bits >= steps)
      #expect(1 << (bits - 1) < steps)
    }
    #expect(layout.totalBits == layout.anchorBits + layout.intervalBits + layout.frameBits)
    #expect(layout.totalBits <= 24)
  }

  @Test("Every quantized (anchor, interval, distance) gives its own hash, below 2^totalBits")
  func fieldsDoNotOverlap() throws {
    var seen = Set<UInt32>()
    var count = 0
    for a in 0..<layout.anchorSteps {
      let anchor = (Float(a) + 0.5) * layout.anchorStep
      for i in 0..<layout.intervalSteps {
        let interval = min(layout.maxInterval, (Float(i) + 0.5) * layout.intervalStep - layout.maxInterval)
        for frames in [1, 2, 31, 32, 63] {
          guard let hash = layout.hash(anchorPitch: anchor, interval: interval, frames: frames) else { continue }
          #expect(hash < 1 << UInt32(layout.totalBits))
          seen.insert(hash)
          count += 1
        }
      }
    }
    #expect(count >= layout.anchorSteps * (layout.intervalSteps - 1) * 5)
    #expect(seen.count == count)
  }

  @Test("Pairs outside the hashable range have no hash")
  func outOfRange() {
    let top = Float(layout.anchorSteps) * layout.anchorStep
    #expect(layout.hash(anchorPitch: 10, interval: 0, frames: 0) == nil)
    #expect(layout.hash(anchorPitch: 10, interval: 0, frames: 64) == nil)
    #expect(layout.hash(anchorPitch: 10, interval: 0, frames: -1) == nil)
    #expect(layout.hash(anchorPitch: -0.01, interval: 0, frames: 5) == nil)
    #expect(layout.hash(anchorPitch: top + 0.01, interval: 0, frames: 5) == nil)
    #expect(layout.hash(anchorPitch: 10, interval: layout.maxInterval + 0.01, frames: 5) == nil)
    #expect(layout.hash(anchorPitch: 10, interval: -layout.maxInterval - 0.01, frames: 5) == nil)
    #expect(layout.hash(anchorPitch: 10, interval: layout.maxInterval, frames: 5) != nil)
    #expect(layout.hash(anchorPitch: 10, interval: -layout.maxInterval, frames: 5) != nil)
    #expect(layout.hash(anchorPitch: 10, interval: 0, frames: 63) != nil)
  }

  @Test("Pitches within one quantization step share a hash; a step apart they do not")
  func quantization() {
    let step = layout.anchorStep
    let base = 20 * step
    #expect(
      layout.hash(anchorPitch: base, interval: 1, frames: 9)
        == layout.hash(anchorPitch: base + step * 0.9, interval: 1, frames: 9))
    #expect(
      layout.hash(anchorPitch: base, interval: 1, frames: 9)
        != layout.hash(anchorPitch: base + step, interval: 1, frames: 9))
    let i0 = -layout.maxInterval + 10 * layout.intervalStep
    #expect(
      layout.hash(anchorPitch: base, interval: i0, frames: 9)
        == layout.hash(anchorPitch: base, interval: i0 + layout.intervalStep * 0.9, frames: 9))
    #expect(
      layout.hash(anchorPitch: base, interval: i0, frames: 9)
        != layout.hash(anchorPitch: base, interval: i0 + layout.intervalStep, frames: 9))
    #expect(
      layout.hash(anchorPitch: base, interval: 1, frames: 9) != layout.hash(anchorPitch: base, interval: 1, frames: 10))
  }

  @Test("Coarser steps and a narrower band need fewer bits")
  func coarserLayout() {
    var p = FingerprintParameters()
    p.anchorStepSemitones = 1
    p.intervalStepSemitones = 1
    p.maxPairSemitones = 6
    let coarse = HashLayout(p)
    #expect(coarse.anchorSteps < layout.anchorSteps)
    #expect(coarse.intervalSteps < layout.intervalSteps)
    #expect(coarse.totalBits < layout.totalBits)
  }
}
