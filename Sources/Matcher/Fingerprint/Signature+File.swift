import Common
import Foundation

/// The signature file format (`.bmsig`): magic, version, a JSON header, the peaks as little-endian binary, and a
/// checksum of everything before it.
extension Signature {
  package static let magic = Array("BMSIG\u{0}\u{0}\u{1}".utf8)
  /// Version 2 added each peak's `frameOffset`; version 1 files (whole-frame peaks, from catalogs' parameters without
  /// `interpolatePeakTimes`) are still read.
  static let formatVersion: UInt32 = 2

  private struct Header: Codable {
    var parameters: FingerprintParameters
    var sampleCount: Int
    var peakCount: Int
    var audibleStartSeconds: Double
    var audibleEndSeconds: Double
    /// Absent from signatures written before it was measured.
    var loudEndSeconds: Double?
  }

  /// The file's bytes.
  public func encoded() throws -> Data {
    var out = BinaryWriter()
    out.append(bytes: Self.magic)
    out.append(Self.formatVersion)
    // Keys sorted, so that the same signature is always the same bytes (JSONEncoder's order otherwise changes from
    // one process to the next).
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let header = try encoder.encode(
      Header(
        parameters: parameters, sampleCount: sampleCount, peakCount: peaks.count,
        audibleStartSeconds: audibleStartSeconds, audibleEndSeconds: audibleEndSeconds,
        loudEndSeconds: loudEndSeconds))
    out.append(UInt32(header.count))
    out.append(bytes: header)
    for p in peaks {
      out.append(UInt32(bitPattern: p.frame))
      out.append(p.bin.bitPattern)
      out.append(p.strength.bitPattern)
      out.append(p.frameOffset.bitPattern)
    }
    out.append(Checksum64.of(out.bytes))
    return Data(out.bytes)
  }

  /// Reads a signature file's bytes; a wrong magic, version or checksum is a `FormatError` naming the problem.
  public init(decoding data: Data, path: String = "signature") throws(FormatError) {
    var reader = BinaryReader(data: data, path: path)
    try reader.expectMagic(Self.magic, what: "a broadcast-monitor signature")
    let version: UInt32 = try reader.read()
    guard version == 1 || version == Self.formatVersion else {
      throw FormatError(
        path: path, reason: "signature format version \(version), this build reads \(Self.formatVersion)")
    }
    try reader.verifyTrailingChecksum()
    let headerLength: UInt32 = try reader.read()
    let headerBytes = try reader.readBytes(Int(headerLength))
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
    } catch {
      throw FormatError(path: path, reason: "unreadable header (\(error))")
    }
    // A checksum proves the bytes unchanged, not that a program wrote them sensibly: the header's counts and every
    // peak are checked against what the matcher relies on, so that no file can trap or mislead it.
    func damaged(_ what: String) -> FormatError {
      FormatError(path: path, reason: "damaged, or not written by broadcast-monitor: \(what)")
    }
    do { try header.parameters.validate() } catch { throw damaged("fingerprint parameters that cannot be (\(error))") }
    let peakBytes = version >= 2 ? 16 : 12
    let bytesLeft = data.count - 8 - reader.offset  // before the trailing checksum
    guard header.peakCount >= 0, header.peakCount <= bytesLeft / peakBytes else {
      throw damaged("the header counts \(header.peakCount) peaks, the file holds \(max(0, bytesLeft) / peakBytes)")
    }
    let seconds = [header.audibleStartSeconds, header.audibleEndSeconds] + (header.loudEndSeconds.map { [$0] } ?? [])
    guard header.sampleCount >= 0, seconds.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw damaged("a negative or endless length (\(header.sampleCount) samples; audible \(seconds) s)")
    }
    // The last frame a peak can have, with the room of a peak block past the audio's end.
    let frames = header.sampleCount / header.parameters.hopSizeSamples + 1 + header.parameters.peakBlockFrames
    let bins = Float(header.parameters.fftSizeSamples / 2 + 1)
    var peaks = [Peak]()
    peaks.reserveCapacity(header.peakCount)
    for index in 0..<header.peakCount {
      let frame: UInt32 = try reader.read()
      let bin: UInt32 = try reader.read()
      let strength: UInt32 = try reader.read()
      let offset: UInt32 = version >= 2 ? try reader.read() : 0
      let peak = Peak(
        frame: Int32(bitPattern: frame), bin: Float(bitPattern: bin), strength: Float(bitPattern: strength),
        frameOffset: Float(bitPattern: offset))
      guard peak.frame >= 0, Int(peak.frame) <= frames, peak.bin.isFinite, peak.bin >= 0, peak.bin < bins,
        peak.strength.isFinite, peak.frameOffset.isFinite, abs(peak.frameOffset) <= 1
      else {
        throw damaged("peak \(index) (frame \(peak.frame), bin \(peak.bin)) lies outside the audio")
      }
      peaks.append(peak)
    }
    self.init(
      parameters: header.parameters, sampleCount: header.sampleCount, peaks: peaks,
      audibleStartSeconds: header.audibleStartSeconds, audibleEndSeconds: header.audibleEndSeconds,
      loudEndSeconds: header.loudEndSeconds)
  }

  /// Writes the signature file atomically; a name that is not a regular file (/dev/null, a FIFO) is written in
  /// place, never replaced (`OutputFile`).
  public func write(to url: URL) throws {
    let data = try encoded()
    if OutputFile.isSpecial(url.path) {
      let handle = try OutputFile.openInPlace(url.path)
      defer { try? handle.close() }
      try handle.write(contentsOf: data)
    } else {
      try data.write(to: URL(fileURLWithPath: OutputFile.replaceablePath(url.path)), options: .atomic)
    }
  }

  /// Reads a signature file.
  public init(contentsOf url: URL) throws {
    let data = try Data(contentsOf: url, options: .mappedIfSafe)
    try self.init(decoding: data, path: url.path)
  }
}
