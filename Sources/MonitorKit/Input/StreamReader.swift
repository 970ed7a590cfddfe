import Common
import Foundation
import RingBuffer

/// The reader thread of a `StreamInput`: runs ffmpeg on the source, turns its output into samples in the ring, and
/// when ffmpeg fails, stalls or exits, reports the gap and starts it again after a `ReconnectBackoff` delay, or
/// sooner when a `StreamProbe` finds the source back (a file is not started again: it ends).
///
/// Audio handling (segments, overruns, time stamps) is in `StreamReader+Audio.swift`, the notices about outages in
/// `StreamReader+Outage.swift`.
///
/// Threads: made and run on the reader thread, and used by nothing else. It is the ring's only producer. It reaches
/// the state it shares with the control and worker threads only through `shared`'s lock, and waits in `poll(2)` on
/// ffmpeg's pipes and on `wake`, which `stop()` signals.
final class StreamReader {
  /// What the reader needs to know, fixed when the input starts.
  struct Configuration: Sendable {
    var source: StreamSource
    var sampleRate: Int
    /// ffmpeg is stopped when its output stays silent (no bytes at all) this long.
    var stallTimeoutSeconds: Double
    /// The ffmpeg program, as an absolute path.
    var ffmpegPath: String
    /// Wall-clock time (seconds since 1970) when the input started: the start of a gap when no audio came yet.
    var startTime: Double
  }

  /// How long the start time of a new network connection's audio must hold still before it is fixed (see
  /// `StreamReader+Audio`): longer than the pauses between an Ogg stream's pages.
  static let anchorDelaySeconds = 1.0
  /// A move of the start time smaller than this is the jitter of live audio's arrival, not a burst still being
  /// decoded (which moves it back by the audio decoded faster than real time: seconds).
  static let anchorSettledSeconds = 0.1
  /// The longest the start time waits to hold still, from the first audio: a burst of 10 s decoded at a loaded
  /// machine's pace, while the held-back audio stays far inside the 30 s ring.
  static let anchorMaxDelaySeconds = 10.0
  /// Bytes read from ffmpeg at a time (8192 samples).
  static let readSize = 32768

  let configuration: Configuration
  let sampleRate: Double
  let ring: SPSCRingBuffer
  let shared: StreamInputShared
  let wake: WakeSignal

  /// Samples the ring has accepted so far: the ring position of the next one.
  var written = 0
  /// The number the next segment gets.
  var nextSegment = 0
  /// The running connection (one ffmpeg run) once it has produced audio.
  var connection: Connection?
  /// Wall-clock time where the last connection's audio ended, nil before any audio.
  var lastAudioEnd: Double?
  /// Set from a failure until audio flows again.
  var outage: Outage?
  var backoff = ReconnectBackoff()
  /// Watches the waits between attempts for the source's return; nil for a file or a scheme it cannot check.
  let probe: StreamProbe?

  /// ffmpeg's output bytes; the first `carry` bytes are the incomplete sample left from the last read.
  var bytes: [UInt8]
  var carry = 0
  /// Samples converted from `bytes`.
  var samples: [Float]

  init(
    configuration: Configuration, ring: SPSCRingBuffer, shared: StreamInputShared, wake: WakeSignal
  ) {
    self.configuration = configuration
    self.sampleRate = Double(configuration.sampleRate)
    self.ring = ring
    self.shared = shared
    self.wake = wake
    if case .network(let url) = configuration.source { probe = StreamProbe(url: url) } else { probe = nil }
    bytes = [UInt8](repeating: 0, count: Self.readSize + 4)
    samples = [Float](repeating: 0, count: (Self.readSize + 4) / 4)
  }

  /// How one run of ffmpeg ended.
  enum RunEnd {
    /// `stop()` was called; ffmpeg has been stopped.
    case stopped
    /// ffmpeg could not be started.
    case notStarted(String)
    /// No output for `stallTimeoutSeconds`; ffmpeg has been stopped.
    case stalled(lastMessage: String?)
    /// ffmpeg ended on its own.
    case exited(FFmpegProcess.Termination, lastMessage: String?)
  }

  /// Runs until `stop()` or, for a file, until it ends. Reader thread.
  func run() {
    while !isStopRequested {
      let end = runFFmpeg()
      let audio = finishConnection()
      if case .stopped = end { return }
      if isStopRequested { return }
      if configuration.source.isFile {
        endFile(after: end, hadAudio: audio.hadAudio)
        return
      }
      let delay = backoff.nextDelay(goodAudioSeconds: audio.seconds)
      update(status: .reconnecting)
      reportFailure(failureReason(end, hadAudio: audio.hadAudio), retryingIn: delay, probed: isProbed(delay))
      if waitForRetry(seconds: delay) { return }
    }
  }

  /// Starts ffmpeg and moves its output into the ring until it ends, stalls or `stop()` is called.
  private func runFFmpeg() -> RunEnd {
    let process: FFmpegProcess
    do {
      process = try FFmpegProcess(
        executable: configuration.ffmpegPath,
        arguments: configuration.source.ffmpegArguments(
          sampleRate: configuration.sampleRate, networkTimeoutSeconds: 2 * configuration.stallTimeoutSeconds))
    } catch {
      return .notStarted("could not start ffmpeg (\(configuration.ffmpegPath)): \(error)")
    }
    shared.withLock {
      $0.ffmpegProcessID = process.processID
      $0.ffmpegLaunches += 1
    }
    defer { shared.withLock { $0.ffmpegProcessID = nil } }
    carry = 0
    var lastData = Self.monotonicSeconds()

    while true {
      var fds = [
        pollfd(fd: wake.pollDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: process.outputDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: process.errorDescriptor, events: Int16(POLLIN), revents: 0),  // poll skips a negative fd
      ]
      let now = Self.monotonicSeconds()
      var deadline = lastData + configuration.stallTimeoutSeconds
      if let due = anchorDue { deadline = min(deadline, due) }
      let timeout = Int32(max(0, min(1000, ((deadline - now) * 1000).rounded(.up))))
      if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR {
        let reason = "poll failed: \(String(cString: strerror(errno)))"
        return .exited(process.terminate(), lastMessage: reason)
      }
      if fds[0].revents != 0 && isStopRequested {
        process.terminate()
        return .stopped
      }
      if fds[2].revents != 0 { process.drainErrors() }
      if fds[1].revents != 0 {
        if !readOutput(of: process) {
          let termination = process.waitForExit(seconds: FFmpegProcess.terminateGraceSeconds) ?? process.terminate()
          process.drainErrors()
          return .exited(termination, lastMessage: process.lastMessage)
        }
        lastData = Self.monotonicSeconds()
      }
      anchorIfDue()
      if Self.monotonicSeconds() - lastData >= configuration.stallTimeoutSeconds {
        // What ffmpeg said while it stalled, not the line it prints when it is stopped.
        process.drainErrors()
        let message = process.lastMessage
        process.terminate()
        return .stalled(lastMessage: message)
      }
    }
  }

  /// Reads what ffmpeg wrote (up to a few buffers) and delivers it as samples. Returns false at end of output.
  private func readOutput(of process: FFmpegProcess) -> Bool {
    for _ in 0..<8 {
      let start = carry
      let result = bytes.withUnsafeMutableBytes { raw in
        process.readOutput(into: UnsafeMutableRawBufferPointer(rebasing: raw[start..<(start + Self.readSize)]))
      }
      switch result {
      case .end:
        return false
      case .nothingYet:
        return true
      case .bytes(let count):
        let total = carry + count
        let frames = total / 4
        bytes.withUnsafeBytes { raw in
          samples.withUnsafeMutableBufferPointer { out in
            for i in 0..<frames {
              out[i] = Float(
                bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
          }
        }
        carry = total - 4 * frames
        for i in 0..<carry { bytes[i] = bytes[4 * frames + i] }
        if frames > 0 { deliver(frames: frames) }
      }
    }
    return true
  }

  /// Ends the input after a file's ffmpeg has ended: quietly when it played to its end, with a notice otherwise.
  private func endFile(after end: RunEnd, hadAudio: Bool) {
    guard case .file(let path, _) = configuration.source else { return }
    var problem: String?
    switch end {
    case .stopped:
      return
    case .notStarted(let reason):
      problem = reason
    case .stalled(let message):
      problem =
        "no audio for \(Self.seconds(configuration.stallTimeoutSeconds)), ffmpeg stopped"
        + (message.map { " (ffmpeg: \($0))" } ?? "")
    case .exited(let termination, let message):
      if termination == .exited(status: 0) {
        if !hadAudio { problem = "it contains no audio" }
      } else {
        let reason = (message ?? termination.description).replacingOccurrences(of: "file:\(path): ", with: "")
        problem = "ffmpeg could not decode it (\(reason)). Check that the file is complete and is an audio file"
      }
    }
    if let problem {
      let startTime = lastAudioEnd ?? configuration.startTime
      shared.withLock {
        $0.post(
          InputNotice(
            kind: .gap, startTime: startTime, endTime: nil,
            detail: "\(configuration.source.description): \(problem); a file is not played again"))
      }
    }
    update(status: .ended)
  }

  /// True when a wait of `delay` seconds before the next attempt is watched by `probe` (see `ReconnectBackoff`).
  func isProbed(_ delay: Double) -> Bool { probe != nil && ReconnectBackoff.isProbed(delaySeconds: delay) }

  /// Waits `seconds` before the next attempt, or less: until `stop()` is called (returns true), or, in a probed
  /// wait, until a probe finds the source up after one in this wait found it down (returns false).
  private func waitForRetry(seconds: Double) -> Bool {
    let deadline = Self.monotonicSeconds() + seconds
    guard isProbed(seconds), let probe, let address = probe.resolve() else { return waitForStop(until: deadline) }
    var sawDown = false
    while true {
      let probedAt = Self.monotonicSeconds()
      switch probe.check(address, timeoutSeconds: ReconnectBackoff.probeTimeoutSeconds, wake: wake) {
      case .stopped:
        return true
      case .down:
        sawDown = true
      case .up:
        if sawDown { return isStopRequested }
      }
      if waitForStop(until: min(deadline, probedAt + ReconnectBackoff.probeIntervalSeconds)) { return true }
      if Self.monotonicSeconds() >= deadline { return false }
    }
  }

  /// Sleeps until `deadline` (monotonic seconds), or less when `stop()` is called. Returns true when it was.
  private func waitForStop(until deadline: Double) -> Bool {
    while !isStopRequested {
      let left = deadline - Self.monotonicSeconds()
      if left <= 0 { return false }
      var fd = pollfd(fd: wake.pollDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&fd, 1, Int32(min(1000, (left * 1000).rounded(.up))))
    }
    return true
  }

  var isStopRequested: Bool { shared.withLock { $0.stopRequested } }

  /// Sets the status, unless `stop()` has already set it to `.ended`.
  func update(status: InputStatus) {
    shared.withLock { state in
      if !state.stopRequested { state.status = status }
    }
  }

  /// Seconds on a clock that does not jump (for timeouts and durations, never for time stamps).
  static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Wall-clock time in seconds since 1970, for time stamps.
  static func wallSeconds() -> Double { Date().timeIntervalSince1970 }

  /// `1.5` → "1.5 s", `30` → "30 s".
  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }
}
