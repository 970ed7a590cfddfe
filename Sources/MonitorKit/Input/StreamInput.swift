import Common
import Dispatch
import Foundation
import RingBuffer

/// A channel's audio from a network stream (any URL ffmpeg opens) or from a file played at real-time pace, once or
/// looped.
///
/// A reader thread of its own (`StreamReader`) runs ffmpeg as a subprocess, so that a malformed stream can crash
/// ffmpeg but never the daemon: `ffmpeg -re? -stream_loop? -rw_timeout? -i SOURCE -vn -ac 1 -af aresample=RATE -f
/// f32le -`. It converts ffmpeg's output to samples and writes them into a lock-free ring that the channel's worker
/// reads with `read(into:)`. When a stream fails, stalls (no output for `stallTimeoutSeconds`) or ends, the input
/// reports a `.gap`, shows `.reconnecting` and starts ffmpeg again after 1, 2, 4, 8, 16, then 30 s
/// (`ReconnectBackoff`); when audio flows again it reports `.reconnect` and starts a new segment. A file that ends,
/// or that ffmpeg cannot decode, is not played again: the input ends (`.ended`, with a `.gap` notice saying why when
/// it failed). Audio the worker does not read in time is dropped, reported as `.overrun`, and the audio after it
/// starts a new segment. Time stamps: see `StreamReader+Audio.swift`.
///
/// Threads: as `ChannelInput` says: `start()` and `stop()` from the control thread, `read(into:)` and
/// `takeNotices()` from the channel's one worker thread, the rest from any thread.
final class StreamInput: ChannelInput {
  /// What is played.
  let source: StreamSource
  /// The rate of the samples delivered, in Hz (ffmpeg resamples to it with soxr).
  let sampleRate: Int
  /// ffmpeg is stopped and started again when it delivers nothing for this long.
  let stallTimeoutSeconds: Double
  /// The ffmpeg program: a name looked up on PATH, or a path.
  let ffmpegPath: String

  private let ring: SPSCRingBuffer
  private let shared = StreamInputShared()
  private let wake: WakeSignal
  /// Signalled by the reader thread as its last action.
  private let readerFinished = DispatchSemaphore(value: 0)

  /// How long `stop()` waits for the reader thread. It needs at most `FFmpegProcess.terminateGraceSeconds` to stop
  /// ffmpeg; past this the thread is left to finish on its own rather than hang the daemon.
  static let stopTimeoutSeconds = 5.0

  /// A network stream, reconnected whenever it fails.
  /// - Parameters:
  ///   - url: any URL ffmpeg opens: `http://host:8000/live.mp3`, `https://…`, an HLS `.m3u8`, `rtmp://` ….
  ///   - sampleRate: rate of the delivered audio, in Hz.
  ///   - ringSeconds: how much audio waits for the worker before the oldest unread audio would be overwritten (the
  ///     newest is dropped instead, and reported as an overrun).
  ///   - stallTimeoutSeconds: ffmpeg is restarted after this long without output.
  ///   - ffmpegPath: the ffmpeg program, a name on PATH or a path.
  /// - Throws: `StreamInputError` for a URL that is not one, or for settings that cannot work.
  convenience init(
    url: String, sampleRate: Int, ringSeconds: Double = 30, stallTimeoutSeconds: Double = 10,
    ffmpegPath: String = "ffmpeg"
  ) throws(StreamInputError) {
    try self.init(
      source: StreamSource.network(checking: url), sampleRate: sampleRate, ringSeconds: ringSeconds,
      stallTimeoutSeconds: stallTimeoutSeconds, ffmpegPath: ffmpegPath)
  }

  /// A file (the `file:PATH` of a channel), played at real-time pace, once or `loop`ed without a break. Whether it
  /// exists is checked by `start()`.
  convenience init(
    filePath: String, loop: Bool, sampleRate: Int, ringSeconds: Double = 30, stallTimeoutSeconds: Double = 10,
    ffmpegPath: String = "ffmpeg"
  ) throws(StreamInputError) {
    try self.init(
      source: .file(path: filePath, loop: loop), sampleRate: sampleRate, ringSeconds: ringSeconds,
      stallTimeoutSeconds: stallTimeoutSeconds, ffmpegPath: ffmpegPath)
  }

  /// Any `source`; the other initializers say what the parameters mean.
  init(
    source: StreamSource, sampleRate: Int, ringSeconds: Double, stallTimeoutSeconds: Double, ffmpegPath: String
  ) throws(StreamInputError) {
    guard (1000...768_000).contains(sampleRate) else {
      throw .invalidSetting("sample rate \(sampleRate) Hz is out of range: give 1000 to 768000 Hz")
    }
    guard ringSeconds.isFinite, ringSeconds > 0, ringSeconds * Double(sampleRate) <= 1e8 else {
      throw .invalidSetting("ring of \(ringSeconds) s: give a positive number of seconds, up to a few minutes")
    }
    guard stallTimeoutSeconds.isFinite, stallTimeoutSeconds >= 0.5 else {
      throw .invalidSetting("stall timeout \(stallTimeoutSeconds) s: give at least 0.5 s (10 s suits most streams)")
    }
    if case .file(let path, _) = source, path.isEmpty {
      throw .fileUnreadable(path: path, reason: "the path is empty")
    }
    do {
      ring = try SPSCRingBuffer(minimumCapacity: max(1, Int((ringSeconds * Double(sampleRate)).rounded(.up))))
    } catch {
      throw .invalidSetting("ring of \(ringSeconds) s: \(error)")
    }
    self.source = source
    self.sampleRate = sampleRate
    self.stallTimeoutSeconds = stallTimeoutSeconds
    self.ffmpegPath = ffmpegPath
    wake = try WakeSignal()
  }

  deinit { stop() }

  var sourceDescription: String { source.description }

  var status: InputStatus { shared.withLock { $0.status } }

  /// Starts the reader thread, which starts ffmpeg. A stream that is down is not an error: the input reports
  /// `.reconnecting` and a `.gap` notice and keeps trying. Calling it again, or after `stop()`, does nothing.
  /// - Throws: `StreamInputError` when the file of a file source is missing or unreadable, or ffmpeg is not
  ///   installed. Control thread.
  func start() throws {
    if shared.withLock({ $0.started || $0.stopRequested }) { return }
    if case .file(let path, _) = source { try Self.checkReadable(path: path) }
    guard let ffmpeg = FFmpegProcess.executable(named: ffmpegPath) else {
      throw StreamInputError.ffmpegMissing(
        ffmpegPath.contains("/") ? "no executable program at \(ffmpegPath)" : "\"\(ffmpegPath)\" is not on PATH")
    }
    shared.withLock { $0.started = true }
    let configuration = StreamReader.Configuration(
      source: source, sampleRate: sampleRate, stallTimeoutSeconds: stallTimeoutSeconds, ffmpegPath: ffmpeg,
      startTime: StreamReader.wallSeconds())
    let (ring, shared, wake, finished) = (ring, shared, wake, readerFinished)
    let thread = Thread {
      StreamReader(configuration: configuration, ring: ring, shared: shared, wake: wake).run()
      finished.signal()
    }
    thread.name = "bm-stream"
    thread.start()
  }

  /// Stops ffmpeg (SIGTERM, SIGKILL after 2 s; always reaped) and the reader thread, and waits for them (at most
  /// `stopTimeoutSeconds`). The status becomes `.ended` and `read` returns nil. Idempotent. Control thread.
  func stop() {
    let running = shared.withLock { state -> Bool in
      if state.stopRequested { return false }
      state.stopRequested = true
      state.status = .ended
      return state.started
    }
    guard running else { return }
    wake.signal()
    _ = readerFinished.wait(timeout: .now() + Self.stopTimeoutSeconds)
  }

  /// Copies the audio that has arrived, up to `buffer.count` frames of one segment, into `buffer`. Nil when nothing
  /// is waiting (or the newest connection's start time is not fixed yet), and after `stop()`. Worker thread.
  func read(into buffer: UnsafeMutableBufferPointer<Float>) -> InputChunk? {
    // Load the ring's count before the lock: see `SegmentTable` for why the order matters.
    let available = ring.availableToRead
    guard available > 0, buffer.count > 0 else { return nil }
    let rate = Double(sampleRate)
    return shared.withLock { state -> InputChunk? in
      guard !state.stopRequested else { return nil }
      // Audio that repeats what was heard before a reconnect is read past (`SegmentTable.Entry.repeatedFrames`).
      var left = available
      var repeated = state.segments.repeatedFrames(at: state.readPosition, limit: left)
      while repeated > 0 {
        let skipped = ring.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<min(repeated, buffer.count)]))
        guard skipped > 0 else { break }
        state.readPosition += skipped
        left -= skipped
        repeated -= skipped
      }
      state.segments.discard(before: state.readPosition)
      guard
        let span = state.segments.span(
          at: state.readPosition, limit: min(left, buffer.count), sampleRate: rate)
      else { return nil }
      let frames = ring.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<span.frames]))
      state.readPosition += frames
      state.segments.discard(before: state.readPosition)
      return InputChunk(frames: frames, sampleRate: rate, startTime: span.startTime, segment: span.number)
    }
  }

  func takeNotices() -> [InputNotice] { shared.withLock { $0.takeNotices() } }

  /// The audio in the ring that `read` could return now: up to the first segment whose start time is still pending;
  /// none after `stop()`.
  var backlogSeconds: Double {
    // Load the ring's count before the lock, as `read` does.
    let available = ring.availableToRead
    guard available > 0 else { return 0 }
    let frames = shared.withLock { state in
      state.stopRequested ? 0 : state.segments.readableFrames(at: state.readPosition, limit: available)
    }
    return Double(frames) / Double(sampleRate)
  }

  /// The ring's size in frames (`ringSeconds` of audio rounded up to a power of two).
  var ringCapacity: Int { ring.capacity }

  /// The running ffmpeg's process ID, nil between attempts. For tests and diagnostics.
  var ffmpegProcessID: Int32? { shared.withLock { $0.ffmpegProcessID } }

  /// How many times ffmpeg has been started. For tests and diagnostics.
  var ffmpegLaunches: Int { shared.withLock { $0.ffmpegLaunches } }

  private static func checkReadable(path: String) throws(StreamInputError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileUnreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else { throw .fileUnreadable(path: path, reason: "it is a folder, not a file") }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw .fileUnreadable(path: path, reason: "not readable (check its permissions)")
    }
  }
}
