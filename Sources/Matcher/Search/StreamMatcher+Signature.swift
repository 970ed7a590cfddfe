/// Matching a signature written by `SignatureGenerator` (a `.bmsig` file) instead of audio, as ShazamKit's
/// `SHSession` matches an `SHSignature`: its peaks go to the matcher as the front end would have sent them.
extension StreamMatcher {
  /// Consumes a query signature as a stream starting at 0, then ends it (`flush`): the plays go to the sink.
  /// - Throws: `SignatureMismatch` when the signature was made with other fingerprint parameters than the catalog,
  ///   so that its peaks cannot be compared with the catalog's.
  public func match(_ signature: Signature) throws(SignatureMismatch) {
    guard signature.parameters == parameters else { throw SignatureMismatch() }
    // No audio, at stream time 0: starts the stream as audio would.
    try? [Float]().withUnsafeBufferPointer { none in
      try append(none, sampleRate: Double(parameters.sampleRateHz), at: 0)
    }
    // One call per block of frames, as the front end's peak extractor delivers them (the blocks it keeps its
    // strongest peaks in), with the stream's time when it would: the block's last frame has been heard.
    let blockFrames = parameters.peakBlockFrames
    let lastFrame = max(signature.frameCount - 1, signature.peaks.last.map { Int($0.frame) } ?? 0)
    var start = signature.peaks.startIndex
    var block = 0
    while block * blockFrames <= lastFrame {
      var end = start
      while end < signature.peaks.endIndex && Int(signature.peaks[end].frame) / blockFrames == block { end += 1 }
      let through = min(lastFrame, (block + 1) * blockFrames - 1)
      signatureSamples = min(signature.sampleCount, (through + 1) * parameters.hopSizeSamples)
      consume(peaks: signature.peaks[start..<end], throughFrame: through)
      start = end
      block += 1
    }
    signatureSamples = signature.sampleCount
    flush()
  }
}

/// A signature made with other fingerprint parameters than the catalog it is matched against.
public struct SignatureMismatch: Error, CustomStringConvertible {
  public init() {}
  public var description: String {
    "the signature was made with other fingerprint parameters than the catalog's; make it again with "
      + "`broadcast-monitor signature` from the same build as the catalog"
  }
}
