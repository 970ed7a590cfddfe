import Foundation

/// Decodes an audio file into float samples, in chunks, without holding the whole file in memory.
///
/// WAV files (PCM 16/24/32-bit or float) are read directly from a memory map — the fast path for long logger
/// recordings. Everything else goes through an `ffmpeg` subprocess (every format ffmpeg reads: FLAC, MP3, Ogg Vorbis,
/// Opus, M4A/AAC …), which also isolates this process from a malformed file. With `forceFFmpeg` (or a
/// `startSeconds` above 0) every file, WAV included, goes through ffmpeg, so that it arrives at exactly
/// `ffmpegSampleRate` with `ffmpegChannels` channels (what a player into a JACK server needs).
/// Any thread; one decode per instance at a time.
public struct AudioFileDecoder: Sendable {
  /// Rate ffmpeg is asked to deliver; WAV files on the fast path are delivered at their own rate.
  public var ffmpegSampleRate: Int
  /// Channels ffmpeg is asked to deliver (ffmpeg downmixes or duplicates); 1 unless set. WAV files on the fast path
  /// keep their own channel count.
  public var ffmpegChannels: Int
  /// Decode WAV files through ffmpeg too, so that every file arrives at `ffmpegSampleRate` and `ffmpegChannels`.
  public var forceFFmpeg: Bool
  /// Seconds of the file to skip (ffmpeg's input seek, `-ss`). Above 0, every file goes through ffmpeg.
  public var startSeconds: Double
  public var ffmpegPath: String

  public init(
    ffmpegSampleRate: Int = 8000, ffmpegChannels: Int = 1, forceFFmpeg: Bool = false, startSeconds: Double = 0,
    ffmpegPath: String = "ffmpeg"
  ) {
    self.ffmpegSampleRate = ffmpegSampleRate
    self.ffmpegChannels = ffmpegChannels
    self.forceFFmpeg = forceFFmpeg
    self.startSeconds = startSeconds
    self.ffmpegPath = ffmpegPath
  }

  /// What was decoded.
  public struct Summary: Sendable {
    public var frames: Int
    public var sampleRate: Double
    public var durationSeconds: Double { Double(frames) / sampleRate }
  }

  /// Decodes `path`, calling `body(interleaved samples, channels, sample rate)` for each chunk of whole frames.
  /// An error thrown by `body` stops the decode (and ffmpeg) and is rethrown.
  /// - Throws: `AudioError` naming the file when it is missing, unreadable or not audio; `.unsupported` for a
  ///   rate, channel count or start that cannot be asked of ffmpeg; whatever `body` throws.
  @discardableResult
  public func decode(
    path: String, _ body: (UnsafeBufferPointer<Float>, _ channels: Int, _ sampleRate: Double) throws -> Void
  ) throws -> Summary {
    guard ffmpegSampleRate > 0, (1...64).contains(ffmpegChannels), startSeconds.isFinite, startSeconds >= 0 else {
      throw AudioError.unsupported(
        "cannot decode to \(ffmpegSampleRate) Hz, \(ffmpegChannels) channels from \(startSeconds) s: "
          + "ask for a positive rate, 1 to 64 channels and a start of 0 s or more")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw AudioError.unreadable(path: path, reason: "no such file, or not readable")
    }
    if !forceFFmpeg, startSeconds == 0, let wav = try? WAVFile(path: path) {
      return try wav.decode(body)
    }
    return try decodeWithFFmpeg(path: path, body)
  }

  private func decodeWithFFmpeg(
    path: String, _ body: (UnsafeBufferPointer<Float>, Int, Double) throws -> Void
  ) throws -> Summary {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let seek = startSeconds > 0 ? ["-ss", String(format: "%.6f", startSeconds)] : []
    process.arguments =
      [ffmpegPath, "-nostdin", "-hide_banner", "-v", "error", "-threads", "1"] + seek + [
        "-i", path, "-vn", "-ac", "\(ffmpegChannels)", "-af", "aresample=\(ffmpegSampleRate):resampler=soxr", "-f",
        "f32le", "-",
      ]
    let stdout = Pipe()
    let stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bm-ffmpeg-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
    _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: stderrFile) }
    let stderrHandle = try FileHandle(forWritingTo: stderrFile)
    process.standardOutput = stdout
    process.standardError = stderrHandle
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw AudioError.decoderMissing("ffmpeg (\(error.localizedDescription))")
    }
    try? stderrHandle.close()
    let reader = stdout.fileHandleForReading
    let channels = ffmpegChannels
    var frames = 0
    var carry = [UInt8]()
    var samples = [Float](repeating: 0, count: 16384)
    var failure: Error?
    while true {
      let chunk = reader.readData(ofLength: 65536)
      if chunk.isEmpty { break }
      if failure != nil { continue }  // drain what ffmpeg wrote before it was stopped
      carry.append(contentsOf: chunk)
      let count = carry.count / (4 * channels) * channels  // whole frames only
      if samples.count < count { samples = [Float](repeating: 0, count: count) }
      carry.withUnsafeBytes { raw in
        for i in 0..<count {
          samples[i] = Float(
            bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)))
        }
      }
      carry.removeFirst(count * 4)
      do {
        try samples.withUnsafeBufferPointer {
          try body(UnsafeBufferPointer(rebasing: $0[0..<count]), channels, Double(ffmpegSampleRate))
        }
      } catch {
        failure = error
        // The consumer is done: do not decode the rest of a long file for nothing. SIGKILL, because ffmpeg gets
        // the calling thread's signal mask from Process, and a caller may block SIGTERM (to take it through a
        // dispatch source). ffmpeg only writes to our pipe, so nothing is lost.
        kill(process.processIdentifier, SIGKILL)
      }
      frames += count / channels
    }
    process.waitUntilExit()
    if let failure { throw failure }
    let log = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
    if process.terminationStatus == 127 { throw AudioError.decoderMissing("ffmpeg") }
    if process.terminationStatus != 0 {
      let reason = log.split(separator: "\n").last.map(String.init) ?? "ffmpeg exit status \(process.terminationStatus)"
      throw AudioError.undecodable(path: path, reason: reason.replacingOccurrences(of: path + ": ", with: ""))
    }
    if frames == 0 { throw AudioError.noAudio(path: path) }
    return Summary(frames: frames, sampleRate: Double(ffmpegSampleRate))
  }

  /// The duration of a file in seconds without decoding it (WAV header, or ffprobe), or nil when unknown.
  public func probeDurationSeconds(path: String) -> Double? {
    if let wav = try? WAVFile(path: path) { return wav.durationSeconds }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
