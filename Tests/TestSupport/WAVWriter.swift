import Foundation

/// Writes RIFF/WAVE files for tests, in every encoding the product reads directly.
public enum WAVWriter {
  public enum Encoding: Sendable, CaseIterable {
    case pcm16
    case pcm24
    case pcm32
    case float32

    public var bitsPerSample: Int {
      switch self {
      case .pcm16: 16
      case .pcm24: 24
      case .pcm32, .float32: 32
      }
    }
  }

  /// A WAVE file of integer PCM samples (interleaved), written as they are.
  /// - Parameter extensible: use `WAVE_FORMAT_EXTENSIBLE` with a sub-format GUID, as many tools write.
  public static func pcm(
    _ samples: [Int32], channels: Int, sampleRate: Int, bitsPerSample: Int, extensible: Bool = false
  ) -> Data {
    precondition([16, 24, 32].contains(bitsPerSample), "16, 24 or 32 bits")
    var body = Data()
    for s in samples {
      withUnsafeBytes(of: s.littleEndian) { body.append(contentsOf: $0.prefix(bitsPerSample / 8)) }
    }
    return file(
      formatTag: 1, channels: channels, sampleRate: sampleRate, bitsPerSample: bitsPerSample, data: body,
      extensible: extensible)
  }

  /// A WAVE file of 32-bit float samples (interleaved).
  public static func float32(_ samples: [Float], channels: Int, sampleRate: Int, extensible: Bool = false) -> Data {
    var body = Data()
    body.reserveCapacity(samples.count * 4)
    for s in samples { withUnsafeBytes(of: s.bitPattern.littleEndian) { body.append(contentsOf: $0) } }
    return file(
      formatTag: 3, channels: channels, sampleRate: sampleRate, bitsPerSample: 32, data: body, extensible: extensible)
  }

  /// Float samples in ±1 written in `encoding` (integers rounded and clipped to the encoding's range).
  public static func data(_ samples: [Float], channels: Int, sampleRate: Int, encoding: Encoding) -> Data {
    switch encoding {
    case .float32:
      return float32(samples, channels: channels, sampleRate: sampleRate)
    case .pcm16, .pcm24, .pcm32:
      let bits = encoding.bitsPerSample
      let scale = Double(Int64(1) << (bits - 1))
      let ints = samples.map { s -> Int32 in
        Int32(max(-scale, min(scale - 1, (Double(s) * scale).rounded())))
      }
      return pcm(ints, channels: channels, sampleRate: sampleRate, bitsPerSample: bits)
    }
  }

  /// Writes mono or interleaved float samples to `url` as a 32-bit float WAVE file.
  public static func write(_ samples: [Float], channels: Int = 1, sampleRate: Int, to url: URL) throws {
    try float32(samples, channels: channels, sampleRate: sampleRate).write(to: url)
  }

  private static func file(
    formatTag: UInt16, channels: Int, sampleRate: Int, bitsPerSample: Int, data body: Data, extensible: Bool
  ) -> Data {
    var out = Data()
    func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    let blockAlign = channels * bitsPerSample / 8
    let fmtSize = extensible ? 40 : 16
    out.append(contentsOf: Array("RIFF".utf8))
    u32(UInt32(4 + (8 + fmtSize) + (8 + body.count) + (body.count & 1)))
    out.append(contentsOf: Array("WAVE".utf8))
    out.append(contentsOf: Array("fmt ".utf8))
    u32(UInt32(fmtSize))
    u16(extensible ? 0xFFFE : formatTag)
    u16(UInt16(channels))
    u32(UInt32(sampleRate))
    u32(UInt32(sampleRate * blockAlign))
    u16(UInt16(blockAlign))
    u16(UInt16(bitsPerSample))
    if extensible {
      u16(22)  // cbSize
      u16(UInt16(bitsPerSample))  // valid bits
      u32(0)  // channel mask
      // Sub-format GUID: the format tag, then 00000000-0010-8000-00AA00389B71.
      u16(formatTag)
      out.append(contentsOf: [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
    }
    out.append(contentsOf: Array("data".utf8))
    u32(UInt32(body.count))
    out.append(body)
    if body.count & 1 == 1 { out.append(0) }
    return out
  }
}
