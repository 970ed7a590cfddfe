import Foundation

/// A RIFF/WAVE file, its header and samples read from one open file (`ReadOnlyFile`): PCM 16, 24 or 32-bit integer,
/// or 32-bit float, any channel count.
/// `init` throws for anything else, and the caller falls back to ffmpeg.
struct WAVFile {
  let file: ReadOnlyFile
  let channels: Int
  let sampleRate: Double
  let bitsPerSample: Int
  let isFloat: Bool
  let dataOffset: Int
  /// The sample bytes the file holds.
  let dataBytes: Int
  /// The sample bytes its data chunk's header declares: more than `dataBytes` when the file was cut short (copied
  /// in part, or its disk filled). A size of 0 or 0xFFFFFFFF, which streams written live leave, declares nothing
  /// and counts as `dataBytes`.
  let declaredDataBytes: Int

  /// The most channels read directly: decoding holds 8192 frames of every channel at once, so a header's count (up
  /// to 65,535) must not size that buffer (2 GB for a file of 124 bytes). The ffmpeg path, where more go, outputs at
  /// most 64 channels too.
  static let maxChannels = 64

  /// The sample rates read, in Hz: from telephone audio's 1 kHz multiples down to 1,000, up to 768,000 (the highest
  /// that audio interfaces and ffmpeg's encoders use). A header outside them is damaged: at 4,000,000,000 Hz an hour
  /// of samples reads as a millisecond, and a scan would report "0 plays in 0 s" instead of an error.
  static let sampleRatesHz = 1000.0...768_000.0

  init(path: String) throws(FormatError) {
    file = try ReadOnlyFile(path: path)
    var header = HeaderReader(file: file)
    let size = file.byteCount
    guard size >= 44, let riff = try header.bytes(at: 0, count: 12),
      riff.prefix(4).elementsEqual("RIFF".utf8), riff[8..<12].elementsEqual("WAVE".utf8)
    else {
      throw FormatError(path: path, reason: "not a RIFF/WAVE file")
    }
    var offset = 12
    var format: (tag: UInt16, channels: Int, rate: Double, bits: Int)?
    var data: (offset: Int, bytes: Int, declared: Int)?
    while offset + 8 <= size, data == nil, let chunk = try header.bytes(at: offset, count: 8) {
      let id = chunk.prefix(4)
      let size32 = Int(chunk.u32(4))
      let body = offset + 8
      if id.elementsEqual("fmt ".utf8), size32 >= 16, let fmt = try header.bytes(at: body, count: min(size32, 26)) {
        var tag = fmt.u16(0)
        // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID, when the file holds it.
        if tag == 0xFFFE, fmt.count >= 26 { tag = fmt.u16(24) }
        format = (tag, Int(fmt.u16(2)), Double(fmt.u32(4)), Int(fmt.u16(14)))
      } else if id.elementsEqual("data".utf8) {
        // Streams written live may leave the size at 0 or 0xFFFFFFFF: take the rest of the file.
        let available = size - body
        let declared = size32 == 0 || size32 == 0xFFFF_FFFF ? available : size32
        data = (body, min(declared, available), declared)
      }
      offset = body + size32 + (size32 & 1)
    }
    guard let f = format, let d = data, f.channels >= 1, f.rate > 0 else {
      throw FormatError(path: path, reason: "WAVE file without fmt or data chunk")
    }
    guard Self.sampleRatesHz.contains(f.rate) else {
      throw FormatError(
        path: path,
        reason: "WAVE header gives a sample rate of \(Int(f.rate)) Hz, outside \(Int(Self.sampleRatesHz.lowerBound))–"
          + "\(Int(Self.sampleRatesHz.upperBound)) Hz: the header is damaged; write the file again or convert it "
          + "with ffmpeg")
    }
    guard f.channels <= Self.maxChannels else {
      throw FormatError(
        path: path, reason: "WAVE file of \(f.channels) channels; more than \(Self.maxChannels) are not read directly")
    }
    guard (f.tag == 1 && [16, 24, 32].contains(f.bits)) || (f.tag == 3 && f.bits == 32) else {
      throw FormatError(path: path, reason: "WAVE encoding \(f.tag)/\(f.bits)-bit not read directly")
    }
    channels = f.channels
    sampleRate = f.rate
    bitsPerSample = f.bits
    isFloat = f.tag == 3
    dataOffset = d.offset
    dataBytes = d.bytes
    declaredDataBytes = d.declared
  }

  /// Reads the header's pieces a window at a time, so that a file of many small chunks before its data costs one read
  /// per window, not one per chunk.
  private struct HeaderReader {
    let file: ReadOnlyFile
    var window: [UInt8] = []
    var windowStart = 0
    /// Bytes read at a time: 64 KB, more than a header with its LIST chunks usually holds.
    static let windowBytes = 1 << 16

    /// The `count` bytes at `offset` (at most `windowBytes`), or nil when the file ends before them.
    mutating func bytes(at offset: Int, count: Int) throws(FormatError) -> ArraySlice<UInt8>? {
      if offset < windowStart || offset + count > windowStart + window.count {
        let wanted = min(Self.windowBytes, max(0, file.byteCount - offset))
        guard wanted >= count else { return nil }
        window = [UInt8](repeating: 0, count: wanted)
        let n = try window.withUnsafeMutableBytes { buffer in
          Result { () throws(FormatError) in try file.read(into: buffer.baseAddress!, bytes: wanted, at: offset) }
        }.get()
        window.removeLast(wanted - n)
        windowStart = offset
        guard n >= count else { return nil }
      }
      let start = offset - windowStart
      return window[start..<(start + count)]
    }
  }

  var frameCount: Int { dataBytes / (channels * bitsPerSample / 8) }
  var durationSeconds: Double { Double(frameCount) / sampleRate }
  /// Whether the file holds less audio than its header declares.
  var isTruncated: Bool { declaredDataBytes > dataBytes }
  /// The duration its header declares.
  var declaredDurationSeconds: Double { Double(declaredDataBytes / (channels * bitsPerSample / 8)) / sampleRate }

  /// Converts the samples to float in chunks of about a second.
  ///
  /// The samples are read (`pread`) into one chunk's buffer, so that a file cut shorter while it is decoded (a
  /// recording overwritten, a disk's file truncated) ends the decoding with `AudioError.truncated`.
  func decode(_ body: (UnsafeBufferPointer<Float>, Int, Double) throws -> Void) throws -> AudioFileDecoder.Summary {
    let bytesPerSample = bitsPerSample / 8
    let chunkFrames = 8192
    let frameBytes = channels * bytesPerSample
    var buffer = [Float](repeating: 0, count: chunkFrames * channels)
    let raw = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * frameBytes, alignment: 16)
    defer { raw.deallocate() }
    var frame = 0
    let total = frameCount
    while frame < total {
      let n = min(chunkFrames, total - frame)
      let count = n * channels
      let read: Int
      do {
        read = try file.read(into: raw, bytes: n * frameBytes, at: dataOffset + frame * frameBytes)
      } catch {
        throw AudioError.unreadable(path: file.path, reason: error.reason)
      }
      guard read == n * frameBytes else {
        let present = frame * frameBytes + read
        throw AudioError.truncated(
          path: file.path, declaredSeconds: declaredDurationSeconds,
          presentSeconds: Double(present / frameBytes) / sampleRate, declaredBytes: declaredDataBytes,
          presentBytes: present)
      }
      let src = UnsafeRawPointer(raw)
      buffer.withUnsafeMutableBufferPointer { out in
        switch (bitsPerSample, isFloat) {
        case (16, _):
          for i in 0..<count {
            out[i] = Float(Int16(littleEndian: src.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) / 32768
          }
        case (24, _):
          for i in 0..<count {
            let p = src + 3 * i
            let v =
              Int32(p.load(as: UInt8.self)) | Int32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8
              | Int32(Int8(bitPattern: p.load(fromByteOffset: 2, as: UInt8.self))) << 16
            out[i] = Float(v) / 8_388_608
          }
        case (32, false):
          for i in 0..<count {
            out[i] =
              Float(Int32(littleEndian: src.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))) / 2_147_483_648
          }
        default:
          for i in 0..<count {
            out[i] = Float(bitPattern: UInt32(littleEndian: src.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
          }
        }
      }
      try buffer.withUnsafeBufferPointer {
        try body(UnsafeBufferPointer(rebasing: $0[0..<count]), channels, sampleRate)
      }
      frame += n
    }
    return AudioFileDecoder.Summary(frames: total, sampleRate: sampleRate)
  }
}

extension ArraySlice<UInt8> {
  /// The little-endian integers at `offset` from the slice's start.
  fileprivate func u32(_ offset: Int) -> UInt32 {
    let i = startIndex + offset
    return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
  }
  fileprivate func u16(_ offset: Int) -> UInt16 {
    let i = startIndex + offset
    return UInt16(self[i]) | UInt16(self[i + 1]) << 8
  }
}
