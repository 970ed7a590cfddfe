import Foundation

/// Makes the reference signature of an audio file for a catalog, and the file's stable key. Any thread; each call is
/// independent.
public struct ReferenceFingerprinter: Sendable {
  public let parameters: FingerprintParameters

  public init(parameters: FingerprintParameters) { self.parameters = parameters }

  /// The key of a file: `Checksum64` of its bytes, in hex. The same file has the same key wherever it lives.
  public static func key(ofFileAt path: String) throws -> String {
    do throws(FormatError) {
      return try key(of: ReadOnlyFile(path: path))
    } catch {
      throw AudioError.unreadable(path: path, reason: error.reason)
    }
  }

  /// Bytes checksummed at a time by `key`: 1 MB.
  static let keyChunkBytes = 1 << 20

  /// The key of an open file: its bytes as it was opened, read a chunk at a time. A file cut short meanwhile is an
  /// error, not a key of part of it.
  static func key(of file: ReadOnlyFile) throws(FormatError) -> String {
    guard file.byteCount > 0 else { throw FormatError(path: file.path, reason: "empty file") }
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(keyChunkBytes, file.byteCount), alignment: 16)
    defer { chunk.deallocate() }
    var checksum = Checksum64.Stream()
    var done = 0
    while done < file.byteCount {
      let n = min(chunk.count, file.byteCount - done)
      try file.readWhole(into: chunk.baseAddress!, bytes: n, at: done)
      checksum.add(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
      done += n
    }
    return String(format: "%016llx", checksum.value)
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
