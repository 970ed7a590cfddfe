/// A spectral peak: a point in time and frequency that stands out from its neighbourhood.
public struct Peak: Sendable, Equatable, Hashable {
  /// Spectrogram frame index (hop-sized steps from the first sample).
  public var frame: Int32
  /// FFT bin, with a fractional part from parabolic interpolation.
  public var bin: Float
  /// How far the peak stands above its bin's running mean, in dB.
  public var strength: Float
  /// Where the peak lies between frames (−0.5…0.5 frame), from parabolic interpolation across its neighbouring
  /// frames; 0 when the fingerprint does not interpolate peak times.
  public var frameOffset: Float

  public init(frame: Int32, bin: Float, strength: Float, frameOffset: Float = 0) {
    self.frame = frame
    self.bin = bin
    self.strength = strength
    self.frameOffset = frameOffset
  }

  /// The time from `earlier` to this peak in fractional frames: whole frames apart, then their places between frames.
  /// Never from the frames' own times as `Float`s: a stream's frame has too many digits for one after hours (a
  /// quarter of a frame lost after 19 hours, a whole frame after 3 days).
  @inline(__always)
  public func frames(after earlier: Peak) -> Float {
    Float(frame - earlier.frame) + (frameOffset - earlier.frameOffset)
  }
}

/// Receives peaks in frame order, in batches (one batch per thinning block, empty when the block had none).
protocol PeakConsumer: AnyObject {
  /// `throughFrame`: every frame up to this one has been decided, so time has advanced that far even in silence.
  func consume(peaks: ArraySlice<Peak>, throughFrame: Int)
  func flush()
}
