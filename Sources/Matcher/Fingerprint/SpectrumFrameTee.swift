/// Hands every spectrum to two consumers, the first first (the peak extractor, then a tap). Holds both.
final class SpectrumFrameTee: SpectrumFrameConsumer {
  private let first: any SpectrumFrameConsumer
  private let second: any SpectrumFrameConsumer

  init(first: any SpectrumFrameConsumer, second: any SpectrumFrameConsumer) {
    self.first = first
    self.second = second
  }

  func consume(frame: Int, power: UnsafeBufferPointer<Float>) {
    first.consume(frame: frame, power: power)
    second.consume(frame: frame, power: power)
  }

  func flush() {
    first.flush()
    second.flush()
  }
}
