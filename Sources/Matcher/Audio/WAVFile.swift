import Foundation

/// A RIFF/WAVE file, its header read from a memory map and its samples read into a buffer: PCM 16, 24 or 32-bit
/// integer, or 32-bit float, any channel count.
/// `init` throws for anything else, and the caller falls back to ffmpeg.
struct WAVFile {
  let file: MappedFile
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

  init(path: String) throws(FormatError) {
    file = try MappedFile(path: path)
    let raw = file.bytes
    func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
    func u16(_ o: Int) -> UInt16 { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
    guard raw.count >= 44, raw.prefix(4).elementsEqual("RIFF".utf8), raw[8..<12].elementsEqual("WAVE".utf8) else {
      throw FormatError(path: path, reason: "not a RIFF/WAVE file")
    }
    var offset = 12
    var format: (tag: UInt16, channels: Int, rate: Double, bits: Int)?
    var data: (offset: Int, bytes: Int, declared: Int)?
    while offset + 8 <= raw.count, data == nil {
      let id = raw[offset..<(offset + 4)]
      let size = Int(u32(offset + 4))
      let body = offset + 8
      if id.elementsEqual("fmt ".utf8), size >= 16, body + 16 <= raw.count {
        var tag = u16(body)
        // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID, when the file holds it.
        if tag == 0xFFFE, size >= 26, body + 26 <= raw.count { tag = u16(body + 24) }
        format = (tag, Int(u16(body + 2)), Double(u32(body + 4)), Int(u16(body + 14)))
      } else if id.elementsEqual("data".utf8) {
        // Streams written live may leave the size at 0 or 0xFFFFFFFF: take the rest of the file.
        let available = raw.count - body
        let declared = size == 0 || size == 0xFFFF_FFFF ? available : size
        data = (body, min(declared, available), declared)
      }
      offset = body + size + (size & 1)
    }
    guard let f = format, let d = data, f.channels >= 1, f.rate > 0 else {
      throw FormatError(path: path, reason: "WAVE file without fmt or data chunk")
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

  var frameCount: Int { dataBytes / (channels * bitsPerSample / 8) }
  var durationSeconds: Double { Double(frameCount) / sampleRate }
  /// Whether the file holds less audio than its header declares.
  var isTruncated: Bool { declaredDataBytes > dataBytes }
  /// The duration its header declares.
  var declaredDurationSeconds: Double { Double(declaredDataBytes / (channels * bitsPerSample / 8)) / sampleRate }

  /// Converts the samples to float in chunks of about a second.
  ///
  /// The samples are read (`pread`) into one chunk's buffer rather than from the map, so that a file cut shorter
  /// while it is decoded (a recording overwritten, a disk's file truncated) ends the decoding with
  /// `AudioError.truncated`: reading the map past the file's new end would kill the process (`SIGBUS`). It costs no
  /// more: a scan of an hour of stereo air took the same CPU either way.
  func decode(_ body: (UnsafeBufferPointer<Float>, Int, Double) throws -> Void) throws -> AudioFileDecoder.Summary {
    let bytesPerSample = bitsPerSample / 8
    let chunkFrames = 8192
    let frameBytes = channels * bytesPerSample
    var buffer = [Float](repeating: 0, count: chunkFrames * channels)
    let raw = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * frameBytes, alignment: 16)
    defer { raw.deallocate() }
    let fd = open(file.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw AudioError.unreadable(path: file.path, reason: "cannot open (\(String(cString: strerror(errno))))")
    }
    defer { close(fd) }
    var frame = 0
    let total = frameCount
    while frame < total {
      let n = min(chunkFrames, total - frame)
      let count = n * channels
      let (read, failure) = MappedFile.readFully(
        fd, into: raw, bytes: n * frameBytes, at: dataOffset + frame * frameBytes)
      if let failure {
        throw AudioError.unreadable(path: file.path, reason: "read failed (\(String(cString: strerror(failure))))")
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
