import Testing

@testable import Matcher

@Suite("AirAudioRing")
struct AirAudioRingTests {
  static func ramp(_ range: Range<Int>) -> [Float] { range.map { Float($0) / 32767 } }

  @Test("Gives back what it holds of a span, the newest part once the start is overwritten")
  func span() {
    let ring = AirAudioRing(seconds: 1, sampleRateHz: 100)
    for start in stride(from: 0, to: 250, by: 30) {
      Self.ramp(start..<min(250, start + 30)).withUnsafeBufferPointer { ring.append($0) }
    }
    #expect(ring.appended == 250)
    #expect(ring.samples(from: 160, to: 200) == Self.ramp(160..<200))
    #expect(ring.samples(from: 100, to: 300) == Self.ramp(150..<250), "only the last 100 samples are held")
    #expect(ring.samples(from: 20, to: 140) == nil)
  }

  @Test("A buffer longer than the ring leaves its own end in it")
  func longBuffer() {
    let ring = AirAudioRing(seconds: 1, sampleRateHz: 100)
    Self.ramp(0..<350).withUnsafeBufferPointer { ring.append($0) }
    #expect(ring.samples(from: 0, to: 350) == Self.ramp(250..<350))
  }
}
