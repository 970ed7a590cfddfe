/// Makes a `Signature` from audio appended in pieces, at any sample rate and channel count (ShazamKit's
/// `SHSignatureGenerator`, for Linux).
///
/// One thread at a time. Reference signatures (for a catalog) keep fewer, stronger peaks than query signatures (for
/// matching a clip), as `FingerprintParameters` says.
public final class SignatureGenerator {
  /// What the signature is for: it decides how many peaks are kept.
  public enum Purpose: Sendable {
    case reference
    case query
  }

  private let collector = PeakCollector()
  private let frontEnd: FingerprintFrontEnd
  private var signatureMade = false

  public init(parameters: FingerprintParameters = FingerprintParameters(), purpose: Purpose = .query) {
    let perBlock = purpose == .reference ? parameters.referencePeaksPerBlock : parameters.queryPeaksPerBlock
    frontEnd = FingerprintFrontEnd(
      parameters: parameters, peaksPerBlock: perBlock, consumer: collector, measuresQuietTail: true)
  }

  /// Appends interleaved samples (`channels` per frame) at `sampleRate` Hz.
  public func append(_ samples: UnsafeBufferPointer<Float>, channels: Int = 1, sampleRate: Double) throws(AudioError) {
    precondition(!signatureMade, "signature() ends the generator; make a new one for more audio")
    try frontEnd.append(samples, channels: channels, sampleRate: sampleRate)
  }

  /// Appends an array of interleaved samples.
  public func append(_ samples: [Float], channels: Int = 1, sampleRate: Double) throws(AudioError) {
    try samples.withUnsafeBufferPointer { buffer throws(AudioError) in
      try append(buffer, channels: channels, sampleRate: sampleRate)
    }
  }

  /// Ends the input and returns the signature of everything appended.
  public func signature() -> Signature {
    if !signatureMade {
      frontEnd.flush()
      signatureMade = true
    }
    let p = frontEnd.parameters
    let hopSeconds = Double(p.hopSizeSamples) / Double(p.sampleRateHz)
    let duration = Double(frontEnd.samplesAtFingerprintRate) / Double(p.sampleRateHz)
    let start = frontEnd.firstAudibleHop.map { Double($0) * hopSeconds } ?? 0
    let end = frontEnd.lastAudibleHop.map { min(duration, Double($0 + 1) * hopSeconds) } ?? 0
    let loudEnd = frontEnd.quietTail?.loudEndHop.map { Double($0) * hopSeconds }
    return Signature(
      parameters: p, sampleCount: frontEnd.samplesAtFingerprintRate, peaks: collector.peaks,
      audibleStartSeconds: start, audibleEndSeconds: end, loudEndSeconds: loudEnd)
  }
}

/// Collects every peak it is given.
final class PeakCollector: PeakConsumer {
  private(set) var peaks: [Peak] = []
  func consume(peaks batch: ArraySlice<Peak>, throughFrame: Int) { peaks.append(contentsOf: batch) }
  func flush() {}
}
