import Common
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
  /// Also read the file's tags into `Summary.tags` (from the same ffmpeg run that decodes it; ffprobe for a WAV on the
  /// fast path). Default false.
  public var readsTags: Bool

  public init(
    ffmpegSampleRate: Int = 8000, ffmpegChannels: Int = 1, forceFFmpeg: Bool = false, startSeconds: Double = 0,
    ffmpegPath: String = "ffmpeg", readsTags: Bool = false
  ) {
    self.ffmpegSampleRate = ffmpegSampleRate
    self.ffmpegChannels = ffmpegChannels
    self.forceFFmpeg = forceFFmpeg
    self.startSeconds = startSeconds
    self.ffmpegPath = ffmpegPath
    self.readsTags = readsTags
  }

  /// What was decoded.
  public struct Summary: Sendable {
    public var frames: Int
    public var sampleRate: Double
    /// The file's tags with lower-cased keys, stream tags overridden by the container's (as `AudioTags.read`), when
    /// `readsTags` is set; empty otherwise. Through ffmpeg, the tags it rewrites on what it writes (`encoder`, the
    /// software that made the file) are left out.
    public var tags: [String: String] = [:]
    public var durationSeconds: Double { Double(frames) / sampleRate }
  }

  /// Decodes `path`, calling `body(interleaved samples, channels, sample rate)` for each chunk of whole frames.
  /// An error thrown by `body` stops the decode (and ffmpeg) and is rethrown.
  /// - Throws: `AudioError` naming the file when it is missing, unreadable, not audio, or a WAV file cut short
  ///   (`.truncated`: a reference or recording missing its end is refused, not read as a shorter one);
  ///   `.unsupported` for a rate, channel count or start that cannot be asked of ffmpeg; whatever `body` throws.
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
    if let wav = try? WAVFile(path: path) {
      if wav.isTruncated {
        throw AudioError.truncated(
          path: path, declaredSeconds: wav.declaredDurationSeconds, presentSeconds: wav.durationSeconds,
          declaredBytes: wav.declaredDataBytes, presentBytes: wav.dataBytes)
      }
      if !forceFFmpeg, startSeconds == 0 {
        var summary = try wav.decode(body)
        if readsTags { summary.tags = AudioTags.read(path: path) }
        return summary
      }
    }
    return try decodeWithFFmpeg(path: path, body)
  }

  private func decodeWithFFmpeg(
    path: String, _ body: (UnsafeBufferPointer<Float>, Int, Double) throws -> Void
  ) throws -> Summary {
    guard let executable = FFmpegProcess.executable(named: ffmpegPath) else {
      throw AudioError.decoderMissing(ffmpegPath)
    }
    let seek = startSeconds > 0 ? ["-ss", String(format: "%.6f", startSeconds)] : []
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bm-ffmpeg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    // The container's tags and the audio stream's, each written by ffmpeg as an FFMETADATA file beside the audio.
    let tagFiles = [scratch.appendingPathExtension("stream.txt"), scratch.appendingPathExtension("format.txt")]
    defer {
      for file in tagFiles where readsTags { try? FileManager.default.removeItem(at: file) }
    }
    let tagOutputs =
      readsTags
      ? ["-map_metadata", "0:s:a:0", "-fflags", "+bitexact", "-f", "ffmetadata", tagFiles[0].path]
        + ["-map_metadata", "0", "-fflags", "+bitexact", "-f", "ffmetadata", tagFiles[1].path] : []
    let arguments =
      ["-nostdin", "-hide_banner", "-nostats", "-v", "error", "-y", "-threads", "1"] + seek + [
        "-i", path, "-vn", "-ac", "\(ffmpegChannels)", "-af", "aresample=\(ffmpegSampleRate):resampler=soxr", "-f",
        "f32le", "-",
      ] + tagOutputs
    let process: FFmpegProcess
    do {
      process = try FFmpegProcess(executable: executable, arguments: arguments)
    } catch {
      throw AudioError.decoderMissing("ffmpeg (\(error))")
    }
    let channels = ffmpegChannels
    var frames = 0
    var failure: Error?
    // ffmpeg's bytes are read straight into float storage; a partial frame at the end of a read waits at the start
    // of the buffer for the rest of its bytes.
    let frameBytes = 4 * channels
    let capacityBytes = max(1, Self.readChunkBytes / frameBytes) * frameBytes
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacityBytes, alignment: 16)
    defer { buffer.deallocate() }
    let floats = buffer.bindMemory(to: Float.self, capacity: capacityBytes / 4)
    var filled = 0
    reading: while failure == nil {
      switch process.readOutput(
        into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacityBytes - filled))
      {
      case .end: break reading
      case .nothingYet:
        process.awaitOutput()
        continue
      case .bytes(let n):
        filled += n
      }
      let usable = filled / frameBytes * frameBytes
      if usable == 0 { continue }
      let count = usable / 4
      #if _endian(big)
        for i in 0..<count { floats[i] = Float(bitPattern: UInt32(littleEndian: floats[i].bitPattern)) }
      #endif
      do {
        try body(UnsafeBufferPointer(start: floats, count: count), channels, Double(ffmpegSampleRate))
      } catch {
        failure = error  // the consumer is done: ffmpeg does not decode the rest of a long file for nothing
      }
      frames += count / channels
      filled -= usable
      if filled > 0 { (buffer).copyMemory(from: buffer + usable, byteCount: filled) }
    }
    if let failure {
      process.terminate()
      throw failure
    }
    // Its output has ended: ffmpeg is exiting (after closing the tag files it writes last).
    let termination = process.waitForExit(seconds: Self.exitWaitSeconds) ?? process.terminate()
    process.drainErrors()
    guard termination == .exited(status: 0) || termination == .unknown else {
      let reason = process.lastMessage ?? termination.description
      throw AudioError.undecodable(path: path, reason: reason.replacingOccurrences(of: path + ": ", with: ""))
    }
    if frames == 0 { throw AudioError.noAudio(path: path) }
    var tags: [String: String] = [:]
    for file in tagFiles where readsTags {
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      tags.merge(FFMetadata.tags(in: text)) { _, container in container }
    }
    return Summary(frames: frames, sampleRate: Double(ffmpegSampleRate), tags: tags)
  }

  /// How long ffmpeg may take to exit once its output has ended (it still writes the tag files) before it is stopped.
  static let exitWaitSeconds = 30.0

  /// Bytes read from ffmpeg at a time: 64 KiB, what a Linux pipe holds, so a read takes all that is waiting.
  static let readChunkBytes = 65536

  /// The duration of a file in seconds without decoding it (WAV header, or ffprobe), or nil when unknown.
  public func probeDurationSeconds(path: String) -> Double? {
    if let wav = try? WAVFile(path: path) { return wav.durationSeconds }
    guard
      let output = FFmpegProcess.output(
        of: "ffprobe", arguments: ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    else { return nil }
    return Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
