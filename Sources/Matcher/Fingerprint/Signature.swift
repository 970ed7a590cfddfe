import Foundation

/// The fingerprint of a clip: its spectral peaks, with what is needed to compare them (the parameters) and to place
/// them in time (duration and the audible span). Like ShazamKit's `SHSignature`: made by a `SignatureGenerator`,
/// written to and read from a file, matched against a catalog.
///
/// A value type: safe to share between threads.
public struct Signature: Sendable, Equatable {
  public var parameters: FingerprintParameters
  /// Samples at the fingerprint rate that went into the signature.
  public var sampleCount: Int
  /// Peaks in frame order.
  public var peaks: [Peak]
  /// Where sound begins and ends (first and last hop louder than -60 dBFS), in seconds from the start.
  public var audibleStartSeconds: Double
  public var audibleEndSeconds: Double
  /// Where the recording's loud part ends (`QuietTail`), between the audible start and end: the audible end when the
  /// recording stays loud to its end, or when it was not measured (`loudEndSeconds` nil at `init`).
  public var loudEndSeconds: Double

  public init(
    parameters: FingerprintParameters, sampleCount: Int, peaks: [Peak], audibleStartSeconds: Double,
    audibleEndSeconds: Double, loudEndSeconds: Double? = nil
  ) {
    self.parameters = parameters
    self.sampleCount = sampleCount
    self.peaks = peaks
    self.audibleStartSeconds = audibleStartSeconds
    self.audibleEndSeconds = audibleEndSeconds
    self.loudEndSeconds = min(audibleEndSeconds, max(audibleStartSeconds, loudEndSeconds ?? audibleEndSeconds))
  }

  public var durationSeconds: Double { Double(sampleCount) / Double(parameters.sampleRateHz) }

  /// Frames in the signature's spectrogram.
  public var frameCount: Int {
    max(0, (sampleCount - parameters.fftSizeSamples) / parameters.hopSizeSamples + 1)
  }
}
