/// Why an `SPSCRingBuffer` could not be created.
public enum RingBufferError: Error, Equatable, CustomStringConvertible {
  /// The requested capacity was zero or negative.
  case capacityNotPositive(Int)
  /// The requested capacity is above `SPSCRingBuffer.maximumCapacity`.
  case capacityTooLarge(requested: Int, maximum: Int)

  public var description: String {
    switch self {
    case .capacityNotPositive(let requested):
      return "ring buffer capacity must be at least 1 sample, got \(requested)"
    case .capacityTooLarge(let requested, let maximum):
      return "ring buffer capacity \(requested) is above the maximum of \(maximum) samples; "
        + "ask for less (a few seconds of audio is plenty)"
    }
  }
}
