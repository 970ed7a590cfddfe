import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("WAVFile")
struct WAVFileTests {
  /// Integer samples at the edges and in the middle of each width's range.
  static func integerSamples(bits: Int) -> [Int32] {
    let full = Int64(1) << (bits - 1)
    return [0, 1, -1, Int32(full / 2), Int32(-full / 2), Int32(full - 1), Int32(-full), 12345, -12345]
  }

  /// Decodes a WAV file's bytes through `WAVFile`, collecting every chunk.
  static func decode(_ data: Data) throws -> (wav: WAVFile, samples: [Float], chunks: [(Int, Double)]) {
    let folder = try TemporaryDirectory()
    let url = folder.file("test.wav")
    try data.write(to: url)
    let wav = try WAVFile(path: url.path)
    var samples: [Float] = []
    var chunks: [(Int, Double)] = []
    _ = try wav.decode { buffer, channels, rate in
      samples += buffer
      chunks.append((channels, rate))
    }
    return (wav, samples, chunks)
  }

  @Test("Integer PCM WAVs decode to value / 2^(bits-1)", arguments: [16, 24, 32], [false, true])
  func integerPCM(bits: Int, extensible: Bool) throws {
    let ints = Self.integerSamples(bits: bits)
    let data = WAVWriter.pcm(ints, channels: 1, sampleRate: 8000, bitsPerSample: bits, extensible: extensible)
    let (wav, samples, _) = try Self.decode(data)
    let scale = Float(Int64(1) << (bits - 1))
    #expect(samples == ints.map { Float($0) / scale })
    #expect(samples.contains(-1))
    #expect(wav.bitsPerSample == bits)
    #expect(!wav.isFloat)
    #expect(wav.frameCount == ints.count)
  }

  @Test("32-bit float WAVs decode to the very same floats", arguments: [false, true])
  func float32(extensible: Bool) throws {
    let floats: [Float] = [0, 0.5, -0.5, 1, -1, 1e-6, -0.25, 0.123_456_78, 1.5]
    let (wav, samples, _) = try Self.decode(
      WAVWriter.float32(floats, channels: 1, sampleRate: 22050, extensible: extensible))
    #expect(samples == floats)
    #expect(wav.isFloat)
    #expect(wav.sampleRate == 22050)
  }

  @Test("Channels stay interleaved, at the file's own rate, in chunks that add up to the file")
  func stereoChunks() throws {
    let frames = 20_000
    let left = (0..<frames).map { Float($0 % 100) / 100 }
    let right = left.map { -$0 }
    let interleaved = Signals.interleave([left, right])
    let (wav, samples, chunks) = try Self.decode(WAVWriter.float32(interleaved, channels: 2, sampleRate: 44100))
    #expect(samples == interleaved)
    #expect(wav.channels == 2)
    #expect(wav.frameCount == frames)
    #expect(abs(wav.durationSeconds - Double(frames) / 44100) < 1e-12)
    #expect(chunks.count > 1)
    #expect(chunks.allSatisfy { $0.0 == 2 && $0.1 == 44100 })
  }

  @Test("A data size of 0 or 0xFFFFFFFF (a file still being written) means the rest of the file")
  func openEndedData() throws {
    let floats: [Float] = [0.25, -0.25, 0.5, -0.5]
    var data = WAVWriter.float32(floats, channels: 1, sampleRate: 8000)
    for size: UInt32 in [0, 0xFFFF_FFFF] {
      withUnsafeBytes(of: size.littleEndian) { data.replaceSubrange(40..<44, with: $0) }
      #expect(try Self.decode(data).samples == floats)
    }
  }

  @Test("A file cut short of the data size its header declares is truncated, and the decoder refuses it")
  func truncated() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("cut.wav")
    let whole = WAVWriter.pcm([Int32](repeating: 7, count: 8000), channels: 1, sampleRate: 8000, bitsPerSample: 16)
    try whole.prefix(44 + 1600).write(to: url)  // 0.1 s of the 1 s declared
    let wav = try WAVFile(path: url.path)
    #expect(wav.isTruncated)
    #expect(wav.declaredDataBytes == 16000)
    #expect(wav.dataBytes == 1600)
    let error = #expect(throws: AudioError.self) { try AudioFileDecoder().decode(path: url.path) { _, _, _ in } }
    #expect(
      error
        == .truncated(
          path: url.path, declaredSeconds: 1, presentSeconds: 0.1, declaredBytes: 16000, presentBytes: 1600))
    #expect(error?.description.contains("Copy or export it again") == true)
    // The whole file is not.
    try whole.write(to: url)
    #expect(try !WAVFile(path: url.path).isTruncated)
  }

  @Test("A file cut shorter while it is decoded ends the decoding as truncated, with what was there, and no crash")
  func cutWhileDecoded() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("shrinking.wav")
    // 2 s at 8 kHz: the first chunk of 8,192 frames, then the file is cut to 10,000 frames.
    try WAVWriter.pcm([Int32](repeating: 7, count: 16000), channels: 1, sampleRate: 8000, bitsPerSample: 16)
      .write(to: url)
    let wav = try WAVFile(path: url.path)
    var decoded = 0
    let error = #expect(throws: AudioError.self) {
      try wav.decode { samples, _, _ in
        if decoded == 0 { truncate(url.path, 44 + 20000) }
        decoded += samples.count
      }
    }
    #expect(decoded == 8192)
    #expect(
      error
        == .truncated(
          path: url.path, declaredSeconds: 2, presentSeconds: 1.25, declaredBytes: 32000, presentBytes: 20000))
  }

  @Test("Chunks before the data (LIST, odd sizes with their pad byte) are skipped")
  func otherChunks() throws {
    let floats: [Float] = [0.5, -0.5, 0.25]
    let plain = WAVWriter.float32(floats, channels: 1, sampleRate: 8000)
    // RIFF header and fmt chunk (36 bytes), then a 5-byte LIST chunk with its pad byte, then the data chunk.
    var data = plain.prefix(36)
    data.append(contentsOf: Array("LIST".utf8) + [5, 0, 0, 0] + Array("INFOx".utf8) + [0])
    data.append(plain.suffix(from: 36))
    #expect(try Self.decode(data).samples == floats)
  }

  @Test("Chunks that reach past the header's first read (a 100 KB LIST chunk) are skipped to the data")
  func chunksPastTheFirstRead() throws {
    let floats: [Float] = [0.5, -0.5, 0.25]
    let plain = WAVWriter.float32(floats, channels: 1, sampleRate: 8000)
    let listBytes = 100_001
    var data = plain.prefix(36)
    data.append(contentsOf: Array("LIST".utf8) + [UInt8(listBytes & 0xFF), UInt8(listBytes >> 8 & 0xFF), 1, 0])
    data.append(contentsOf: [UInt8](repeating: 7, count: listBytes + 1))
    data.append(plain.suffix(from: 36))
    #expect(try Self.decode(data).samples == floats)
  }

  @Test("A file renamed over the path after it was opened is still read whole, the samples of the file opened")
  func renamedOverAfterOpening() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("air.wav")
    let other = folder.file("other.wav")
    try WAVWriter.pcm([Int32](repeating: 100, count: 12000), channels: 1, sampleRate: 8000, bitsPerSample: 16)
      .write(to: url)
    try WAVWriter.pcm([Int32](repeating: -5, count: 12000), channels: 2, sampleRate: 8000, bitsPerSample: 16)
      .write(to: other)
    let wav = try WAVFile(path: url.path)
    #expect(rename(other.path, url.path) == 0)
    var samples: [Float] = []
    _ = try wav.decode { buffer, channels, _ in
      #expect(channels == 1)
      samples += buffer
    }
    #expect(samples.count == 12000)
    #expect(Set(samples) == [Float(100) / 32768])
  }

  @Test("Encodings it does not read directly, and files that are not WAVE, are a FormatError")
  func unsupported() throws {
    var eightBit = WAVWriter.pcm([0, 1, 2, 3], channels: 1, sampleRate: 8000, bitsPerSample: 16)
    eightBit[34] = 8  // bits per sample
    var aLaw = WAVWriter.pcm([0, 1, 2, 3], channels: 1, sampleRate: 8000, bitsPerSample: 16)
    aLaw[20] = 6  // format tag: A-law
    let folder = try TemporaryDirectory()
    for (name, data) in [
      ("8-bit", eightBit), ("A-law", aLaw), ("text", Data(String(repeating: "not a wave ", count: 8).utf8)),
    ] {
      let url = folder.file("\(name).wav")
      try data.write(to: url)
      let error = #expect(throws: FormatError.self, "\(name)") { try WAVFile(path: url.path) }
      #expect(error?.path == url.path)
    }
  }

  @Test("A header claiming more channels than the reader takes is refused, not read into a buffer of gigabytes")
  func tooManyChannels() throws {
    // 65,535 channels in a 124-byte file: found by scripts/fuzz.sh (wav); the chunk buffer, 8192 frames of every
    // channel, then asked for 2 GB.
    let folder = try TemporaryDirectory()
    for channels in [65, 65535] {
      var data = WAVWriter.pcm([0, 1, 2, 3], channels: 1, sampleRate: 8000, bitsPerSample: 16)
      data[22] = UInt8(channels & 0xFF)
      data[23] = UInt8(channels >> 8)
      let url = folder.file("\(channels).wav")
      try data.write(to: url)
      let error = #expect(throws: FormatError.self, "\(channels)") { try WAVFile(path: url.path) }
      #expect(error?.path == url.path)
      #expect(error?.reason.contains("\(channels) channels") == true, "\(String(describing: error))")
    }
    let most = WAVWriter.pcm(Array(repeating: 7, count: 128), channels: 64, sampleRate: 8000, bitsPerSample: 16)
    #expect(try Self.decode(most).chunks.allSatisfy { $0.0 == 64 })
  }

  @Test("A header whose sample rate no audio has is refused, naming the rate, and the edges of the range are read")
  func impossibleSampleRate() throws {
    let folder = try TemporaryDirectory()
    for rate: UInt32 in [999, 768_001, 4_000_000_000] {
      var data = WAVWriter.pcm([0, 1, 2, 3], channels: 1, sampleRate: 8000, bitsPerSample: 16)
      withUnsafeBytes(of: rate.littleEndian) { data.replaceSubrange(24..<28, with: $0) }
      let url = folder.file("\(rate).wav")
      try data.write(to: url)
      let error = #expect(throws: FormatError.self, "\(rate)") { try WAVFile(path: url.path) }
      #expect(error?.reason.contains("sample rate of \(rate) Hz") == true, "\(String(describing: error))")
    }
    for rate in [1000, 768_000] {
      let edge = WAVWriter.pcm([0, 1, 2, 3], channels: 1, sampleRate: rate, bitsPerSample: 16)
      #expect(try Self.decode(edge).wav.sampleRate == Double(rate))
    }
  }

  @Test("A WAVE_FORMAT_EXTENSIBLE fmt chunk cut before its sub-format is refused, without reading past the file")
  func extensibleCutShort() throws {
    // Found by scripts/fuzz.sh (wav): the sub-format was read 24 bytes into the fmt chunk's body whatever the file's
    // length, past the end of the memory map of a 44-byte file.
    let whole = WAVWriter.float32([0, 0.5], channels: 1, sampleRate: 8000, extensible: true)
    let folder = try TemporaryDirectory()
    let url = folder.file("cut.wav")
    try whole.prefix(44).write(to: url)
    let error = #expect(throws: FormatError.self) { try WAVFile(path: url.path) }
    #expect(error?.path == url.path)
  }
}
