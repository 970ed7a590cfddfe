import Foundation
import TestSupport
import Testing

/// The test helpers other tests rely on, checked against independent measures.
@Suite("TestSupport")
struct TestSupportTests {
  /// Power of `samples` at `frequency` Hz (Goertzel), normalised so that a full-scale sine gives about 0.25.
  static func power(of samples: [Float], at frequency: Double, sampleRate: Double = 8000) -> Double {
    let w = 2 * Double.pi * frequency / sampleRate
    var (s1, s2) = (0.0, 0.0)
    for x in samples {
      let s = Double(x) + 2 * cos(w) * s1 - s2
      s2 = s1
      s1 = s
    }
    let n = Double(samples.count)
    return (s1 * s1 + s2 * s2 - 2 * cos(w) * s1 * s2) / (n * n)
  }

  @Test("A seeded generator repeats its sequence for the same seed and not for another")
  func seededGenerator() {
    var a = SeededGenerator(seed: 1)
    var b = SeededGenerator(seed: 1)
    var c = SeededGenerator(seed: 2)
    let first = (0..<8).map { _ in a.next() }
    #expect(first == (0..<8).map { _ in b.next() })
    #expect(first != (0..<8).map { _ in c.next() })
    #expect(Signals.noise(seconds: 0.1, seed: 5) == Signals.noise(seconds: 0.1, seed: 5))
  }

  @Test("Synthetic songs: the same seed is the same song, another seed another; notes cover the whole song")
  func syntheticSongs() {
    let song = SyntheticSong(seed: 3, seconds: 5)
    #expect(song == SyntheticSong(seed: 3, seconds: 5))
    #expect(song.notes != SyntheticSong(seed: 4, seconds: 5).notes)
    #expect(song.notes.first?.start == 0)
    #expect(song.notes.contains { abs($0.start + $0.duration - 5) < 1e-9 })
    #expect(song.notes.allSatisfy { $0.frequency >= 300 && $0.frequency <= 3600 })
    #expect(song.render().count == 40_000)
    #expect(song.render(tempo: 1.25).count == 32_000)
  }

  @Test("Rendering with tempo and pitch moves a note's frequency only when pitch says so")
  func renderedSpeed() throws {
    let song = SyntheticSong(seed: 8, seconds: 3, notesPerSecond: 1)
    let note = try #require(song.notes.first)
    let slice = { (samples: [Float], tempo: Double) in
      Array(samples[Int(note.start / tempo * 8000)..<Int((note.start + 0.1) / tempo * 8000)])
    }
    let stretched = slice(song.render(tempo: 1.05), 1.05)
    let resampled = slice(song.render(tempo: 1.05, pitch: 1.05), 1.05)
    #expect(Self.power(of: stretched, at: note.frequency) > 10 * Self.power(of: stretched, at: note.frequency * 1.05))
    #expect(Self.power(of: resampled, at: note.frequency * 1.05) > 10 * Self.power(of: resampled, at: note.frequency))
  }

  @Test("SpeedChange.resample plays a sine faster: its frequency rises by the speed, its length shrinks by it")
  func speedChange() {
    let tone = Signals.sine(frequency: 1000, seconds: 2, amplitude: 0.5)
    let fast = SpeedChange.resample(tone, speed: 1.05)
    #expect(fast.count == Int(Double(tone.count) / 1.05))
    let middle = Array(fast[2000..<12000])
    #expect(Self.power(of: middle, at: 1050) > 100 * Self.power(of: middle, at: 1000))
    #expect(abs(Signals.rms(middle) - 0.5 / Float(2).squareRoot()) < 0.01)
    // Played 1.5 times as fast, a 3800 Hz tone would fold back to 2300 Hz: it is filtered out instead.
    let high = SpeedChange.resample(Signals.sine(frequency: 3800, seconds: 1, amplitude: 0.5), speed: 1.5)
    #expect(Signals.rms(Array(high[1000..<4000])) < 0.035)
  }

  @Test(
    "WAV files written by WAVWriter decode in ffmpeg to the same samples",
    .enabled(if: Subprocess.isInstalled("ffmpeg")))
  func wavWriterAgreesWithFFmpeg() throws {
    let folder = try TemporaryDirectory()
    let samples: [Float] = (0..<1000).map { Float(sin(Double($0) * 0.05)) * 0.5 }
    for encoding in WAVWriter.Encoding.allCases {
      let wav = folder.file("\(encoding).wav")
      try WAVWriter.data(samples, channels: 1, sampleRate: 8000, encoding: encoding).write(to: wav)
      let raw = folder.file("\(encoding).f32")
      let result = try Subprocess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", wav.path, "-f", "f32le", raw.path])
      #expect(result.status == 0, "\(result)")
      let bytes = [UInt8](try Data(contentsOf: raw))
      let decoded = stride(from: 0, to: bytes.count - 3, by: 4).map { i in
        Float(
          bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3])
            << 24)
      }
      #expect(decoded.count == samples.count, "\(encoding)")
      let quantum = Float(1) / Float(1 << (encoding.bitsPerSample - 2))
      #expect(zip(decoded, samples).allSatisfy { abs($0 - $1) <= quantum }, "\(encoding)")
    }
  }

  @Test("Fixture paths lead to the music folder, from any working directory")
  func fixtures() {
    #expect(FileManager.default.fileExists(atPath: Fixtures.music("catalog-a.ogg").path))
    #expect(FileManager.default.fileExists(atPath: Fixtures.music("tracks.csv").path))
    #expect(FileManager.default.fileExists(atPath: Fixtures.packageRoot.appendingPathComponent("Package.swift").path))
  }

  @Test("A temporary directory exists while held and is gone afterwards")
  func temporaryDirectory() throws {
    var url: URL?
    do {
      let folder = try TemporaryDirectory()
      try Data("x".utf8).write(to: folder.file("f"))
      url = folder.url
      #expect(FileManager.default.fileExists(atPath: folder.file("f").path))
    }
    #expect(!FileManager.default.fileExists(atPath: try #require(url).path))
  }

  @Test("A background process holds no descriptor of the test process: a pipe open while it runs reaches end of file")
  func backgroundProcessInheritsNoDescriptor() throws {
    let folder = try TemporaryDirectory(prefix: "background-fds")
    let pipe = Pipe()
    let sleeper = try BackgroundProcess(
      executable: "/bin/sleep", arguments: ["30"], outputPath: folder.file("sleep.txt").path)
    defer { sleeper.terminateAndWait() }
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(sleeper.pid)/fd")
    #expect(descriptors.sorted() == ["0", "1", "2"])
    try pipe.fileHandleForWriting.close()
    #expect(pipe.fileHandleForReading.readDataToEndOfFile().isEmpty, "end of file, not a wait for the sleeper")
  }
}
