import Foundation

/// Makes the reference signature of an audio file for a catalog, and the file's stable key. Any thread; each call is
/// independent.
public struct ReferenceFingerprinter: Sendable {
  public let parameters: FingerprintParameters

  public init(parameters: FingerprintParameters) { self.parameters = parameters }

  /// The key of a file: `Checksum64` of its bytes, in hex. The same file has the same key wherever it lives.
  public static func key(ofFileAt path: String) throws -> String {
    let file: MappedFile
    do { file = try MappedFile(path: path) } catch {
      throw AudioError.unreadable(path: path, reason: error.reason)
    }
    return String(format: "%016llx", Checksum64.of(file.bytes))
  }

  /// Decodes `path` and returns its reference signature.
  public func signature(ofFileAt path: String) throws -> Signature {
    try signatureAndTags(ofFileAt: path, readsTags: false).signature
  }

  /// Decodes `path` once for its reference signature and its tags (`AudioTags.read`'s keys; read by the ffmpeg run
  /// that decodes the file, so that no second process is started for them).
  public func signatureAndTags(ofFileAt path: String) throws -> (signature: Signature, tags: [String: String]) {
    try signatureAndTags(ofFileAt: path, readsTags: true)
  }

  private func signatureAndTags(ofFileAt path: String, readsTags: Bool) throws -> (
    signature: Signature, tags: [String: String]
  ) {
    let generator = SignatureGenerator(parameters: parameters, purpose: .reference)
    let decoder = AudioFileDecoder(ffmpegSampleRate: parameters.sampleRateHz, readsTags: readsTags)
    let summary = try decoder.decode(path: path) { samples, channels, rate in
      try generator.append(samples, channels: channels, sampleRate: rate)
    }
    let signature = generator.signature()
    guard signature.frameCount > 0 else { throw AudioError.noAudio(path: path) }
    return (signature, summary.tags)
  }
}
