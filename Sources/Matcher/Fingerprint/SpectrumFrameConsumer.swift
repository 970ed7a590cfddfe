/// Receives power spectra, one frame at a time, in frame order.
protocol SpectrumFrameConsumer: AnyObject {
  /// `power` holds |X(k)|² for the analyzer's bins `firstBin..<firstBin + power.count`; it is valid only during
  /// the call.
  func consume(frame: Int, power: UnsafeBufferPointer<Float>)
  /// No more frames will come.
  func flush()
}
