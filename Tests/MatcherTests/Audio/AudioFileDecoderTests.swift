import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("AudioFileDecoder", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct AudioFileDecoderTests {
  static func decodeAll(_ path: String, rate: Int = 8000) throws -> (
    samples: [Float], channels: Set<Int>, rates: Set<Double>, summary: AudioFileDecoder.Summary
  ) {
    var samples: [Float] = []
    var channels = Set<Int>()
    var rates = Set<Double>()
    let summary = try AudioFileDecoder(ffmpegSampleRate: rate).decode(path: path) { buffer, c, r in
      samples += buffer
      channels.insert(c)
      rates.insert(r)
    }
    return (samples, channels, rates, summary)
  }

  @Test("An Ogg Vorbis fixture decodes through ffmpeg, mono at the rate asked for", arguments: [8000, 16000])
  func ogg(rate: Int) throws {
    let decoded = try Self.decodeAll(Fixtures.music("catalog-a.ogg").path, rate: rate)
    #expect(decoded.channels == [1])
    #expect(decoded.rates == [Double(rate)])
    #expect(decoded.summary.frames == decoded.samples.count)
    #expect(abs(decoded.summary.durationSeconds - 30) < 0.1)
    #expect(Signals.rms(decoded.samples) > 0.01)
  }

  @Test("The samples are exactly those ffmpeg writes, reassembled across pipe reads")
  func sameAsFFmpeg() throws {
    let path = Fixtures.music("catalog-b.ogg").path
    let folder = try TemporaryDirectory()
    let raw = folder.file("b.f32")
    let result = try Subprocess.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-i", path, "-ac", "1", "-af", "aresample=8000:resampler=soxr", "-f", "f32le",
        raw.path,
      ])
    #expect(result.status == 0, "\(result)")
    let bytes = [UInt8](try Data(contentsOf: raw))
    let expected = stride(from: 0, to: bytes.count - 3, by: 4).map { i in
      Float(
        bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3])
          << 24)
    }
    #expect(expected.count > 200_000)
    #expect(try Self.decodeAll(path).samples == expected)
  }

  @Test("A WAV file is read directly, at its own rate and channel count")
  func wavDirect() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("stereo.wav")
    let left = Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 44100, amplitude: 0.5)
    let interleaved = Signals.interleave([left, left.map { -$0 }])
    try WAVWriter.write(interleaved, channels: 2, sampleRate: 44100, to: url)
    let decoded = try Self.decodeAll(url.path)
    #expect(decoded.samples == interleaved)
    #expect(decoded.channels == [2])
    #expect(decoded.rates == [44100])
    #expect(decoded.summary.frames == left.count)
  }

  @Test("forceFFmpeg takes a WAV through ffmpeg too, to the rate and channel count asked for")
  func forcedRateAndChannels() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("stereo.wav")
    let left = Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 44100, amplitude: 0.5)
    try WAVWriter.write(Signals.interleave([left, left.map { -$0 }]), channels: 2, sampleRate: 44100, to: url)
    var samples: [Float] = []
    var shapes = Set<[Double]>()
    let decoder = AudioFileDecoder(ffmpegSampleRate: 48000, ffmpegChannels: 2, forceFFmpeg: true)
    let summary = try decoder.decode(path: url.path) { buffer, channels, rate in
      #expect(buffer.count % channels == 0, "a chunk of whole frames")
      samples += buffer
      shapes.insert([Double(channels), rate])
    }
    #expect(shapes == [[2, 48000]])
    #expect(summary.sampleRate == 48000)
    #expect(summary.frames * 2 == samples.count)
    #expect(abs(summary.frames - 24000) <= 64, "0.5 s at 48 kHz, got \(summary.frames) frames")
    let l = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    let r = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
    #expect(zip(l, r).allSatisfy { abs($0 + $1) < 1e-6 }, "the right channel stays the left one inverted")
    #expect(abs(Signals.rms(l) - 0.5 / Float(2).squareRoot()) < 0.01)
  }

  @Test("A mono file asked for in stereo arrives on both channels alike, at the rate asked for")
  func monoToStereo() throws {
    var samples: [Float] = []
    let decoder = AudioFileDecoder(ffmpegSampleRate: 48000, ffmpegChannels: 2, forceFFmpeg: true)
    let summary = try decoder.decode(path: Fixtures.music("unknown.ogg").path) { buffer, channels, rate in
      #expect(channels == 2 && rate == 48000)
      samples += buffer
    }
    #expect(abs(summary.durationSeconds - 20) < 0.1)
    #expect(stride(from: 0, to: samples.count, by: 2).allSatisfy { samples[$0] == samples[$0 + 1] })
    #expect(Signals.rms(samples) > 0.01)
  }

  @Test("startSeconds skips the start of the file, exactly, through ffmpeg even for a WAV")
  func startOffset() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("ramp.wav")
    let ramp = (0..<8000).map { Float($0) / 8000 }
    try WAVWriter.write(ramp, sampleRate: 8000, to: url)
    var samples: [Float] = []
    let decoder = AudioFileDecoder(ffmpegSampleRate: 8000, startSeconds: 0.25)
    try decoder.decode(path: url.path) { buffer, _, _ in samples += buffer }
    #expect(samples == Array(ramp[2000...]))
  }

  @Test(
    "A rate, channel count or start ffmpeg cannot be asked for is an error saying what to ask for",
    arguments: [(0, 1, 0.0), (8000, 0, 0), (8000, 65, 0), (8000, 1, -1), (8000, 1, .nan)])
  func badOutputShape(rate: Int, channels: Int, start: Double) {
    let decoder = AudioFileDecoder(
      ffmpegSampleRate: rate, ffmpegChannels: channels, forceFFmpeg: true, startSeconds: start)
    let error = #expect(throws: AudioError.self) {
      try decoder.decode(path: Fixtures.music("catalog-a.ogg").path) { _, _, _ in }
    }
    guard case .unsupported(let message)? = error else {
      Issue.record("expected unsupported, got \(String(describing: error))")
      return
    }
    #expect(message.contains("ask for a positive rate, 1 to 64 channels"))
  }

  @Test("A WAV in an encoding not read directly (8-bit) still decodes, through ffmpeg")
  func wavFallback() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("eight-bit.wav")
    let frames = 8000
    // 8-bit PCM is unsigned: 128 is zero. A square wave of ±64/128 = ±0.5.
    var data = WAVWriter.pcm([Int32](repeating: 0, count: frames / 2), channels: 1, sampleRate: 8000, bitsPerSample: 16)
    data[34] = 8
    data[32] = 1  // block align
    withUnsafeBytes(of: UInt32(8000).littleEndian) { data.replaceSubrange(28..<32, with: $0) }  // bytes per second
    for i in 0..<frames { data[44 + i] = (i / 20) % 2 == 0 ? 192 : 64 }
    try data.write(to: url)
    let decoded = try Self.decodeAll(url.path, rate: 8000)
    #expect(decoded.channels == [1])
    #expect(decoded.rates == [8000])
    #expect(abs(decoded.samples.count - frames) <= 16)
    #expect(abs(Signals.rms(decoded.samples) - 0.5) < 0.05)
  }

  @Test(
    "A damaged or non-audio file is an AudioError whose description names the file",
    arguments: ["corrupt.ogg", "not-audio.ogg"])
  func badFixtures(name: String) throws {
    let path = Fixtures.music(name).path
    let error = #expect(throws: AudioError.self) { try Self.decodeAll(path) }
    #expect(error?.description.contains(path) == true, "\(String(describing: error))")
    switch error {
    case .undecodable(let p, _)?, .noAudio(let p)?: #expect(p == path)
    default: Issue.record("expected undecodable or noAudio, got \(String(describing: error))")
    }
  }

  @Test("A missing file is unreadable, naming the file")
  func missingFile() {
    let error = #expect(throws: AudioError.self) { try Self.decodeAll("/no/such/file.ogg") }
    #expect(error == .unreadable(path: "/no/such/file.ogg", reason: "no such file, or not readable"))
  }

  @Test("A missing ffmpeg is reported as such, with how to install it")
  func missingDecoder() {
    let decoder = AudioFileDecoder(ffmpegPath: "broadcast-monitor-no-such-ffmpeg")
    let error = #expect(throws: AudioError.self) {
      try decoder.decode(path: Fixtures.music("catalog-a.ogg").path) { _, _, _ in }
    }
    guard case .decoderMissing? = error else {
      Issue.record("expected decoderMissing, got \(String(describing: error))")
      return
    }
    #expect(error?.description.contains("apt-get install ffmpeg") == true)
  }

  @Test("An error thrown while consuming stops the decode and comes back to the caller")
  func bodyErrorPropagates() {
    struct Stop: Error {}
    var calls = 0
    #expect(throws: Stop.self) {
      try AudioFileDecoder().decode(path: Fixtures.music("catalog-b.ogg").path) { _, _, _ in
        calls += 1
        throw Stop()
      }
    }
    #expect(calls == 1)
  }

  @Test("Durations are probed without decoding: from the WAV header, or with ffprobe")
  func probe() throws {
    let decoder = AudioFileDecoder()
    #expect(abs((decoder.probeDurationSeconds(path: Fixtures.music("unknown.ogg").path) ?? 0) - 20) < 0.1)
    let folder = try TemporaryDirectory()
    let url = folder.file("short.wav")
    try WAVWriter.write(Signals.silence(seconds: 1.5, sampleRate: 8000), sampleRate: 8000, to: url)
    #expect(decoder.probeDurationSeconds(path: url.path) == 1.5)
    #expect(decoder.probeDurationSeconds(path: Fixtures.music("not-audio.ogg").path) == nil)
  }
}

@Suite("AudioTags and file keys", .enabled(if: Subprocess.isInstalled("ffprobe"), "needs ffprobe"))
struct AudioTagsTests {
  @Test("Tags come from the file: title and artist of an Ogg fixture")
  func tags() {
    let metadata = AudioTags.metadata(path: Fixtures.music("catalog-c.ogg").path)
    #expect(metadata.title == "Internal Degeneration")
    #expect(metadata.artist == "Muldjord")
    #expect(metadata.album == "Mutilated Mime")
  }

  @Test(
    "The decode reads the same tags as ffprobe, in the same ffmpeg run; the signature is the one made without tags",
    arguments: ["catalog-a.ogg", "catalog-c.ogg", "unknown.ogg"])
  func tagsWhileDecoding(name: String) throws {
    let path = Fixtures.music(name).path
    let fingerprinter = ReferenceFingerprinter(parameters: FingerprintParameters())
    let (signature, tags) = try fingerprinter.signatureAndTags(ofFileAt: path)
    #expect(tags == AudioTags.read(path: path).filter { $0.key != "encoder" })
    #expect(AudioTags.metadata(tags: tags, path: path) == AudioTags.metadata(path: path))
    #expect(signature == (try fingerprinter.signature(ofFileAt: path)))
  }

  @Test("A WAV read directly gets its tags through ffprobe")
  func wavTags() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("tagged.wav")
    try WAVWriter.write(Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 8000), sampleRate: 8000, to: url)
    let tagged = folder.file("tagged-with-title.wav")
    let result = try Subprocess.run(
      "ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-c", "copy", "-metadata", "title=Ident", tagged.path])
    #expect(result.status == 0, "\(result)")
    let summary = try AudioFileDecoder(readsTags: true).decode(path: tagged.path) { _, _, _ in }
    #expect(summary.tags["title"] == "Ident")
    #expect(try AudioFileDecoder().decode(path: tagged.path) { _, _, _ in }.tags.isEmpty)
  }

  @Test("Without a title tag, the file name is the title")
  func fileNameTitle() throws {
    let folder = try TemporaryDirectory()
    let url = folder.file("Station Ident 3.wav")
    try WAVWriter.write(Signals.silence(seconds: 0.1), sampleRate: 8000, to: url)
    #expect(AudioTags.metadata(path: url.path).title == "Station Ident 3")
  }

  @Test("A file's key depends on its bytes only: a copy elsewhere has the same key, another file another")
  func keys() throws {
    let folder = try TemporaryDirectory()
    let copy = folder.file("renamed.ogg")
    try FileManager.default.copyItem(at: Fixtures.music("catalog-a.ogg"), to: copy)
    let original = try ReferenceFingerprinter.key(ofFileAt: Fixtures.music("catalog-a.ogg").path)
    #expect(try ReferenceFingerprinter.key(ofFileAt: copy.path) == original)
    #expect(try ReferenceFingerprinter.key(ofFileAt: Fixtures.music("catalog-b.ogg").path) != original)
    #expect(original.count == 16 && original.allSatisfy(\.isHexDigit))
    #expect(throws: AudioError.self) { try ReferenceFingerprinter.key(ofFileAt: folder.file("missing.ogg").path) }
  }
}
