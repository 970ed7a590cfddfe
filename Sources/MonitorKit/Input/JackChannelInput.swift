import Foundation
import JackInput
import RingBuffer
import Synchronization

/// A channel's audio from JACK: its one or two input ports' rings (filled by the real-time callback), downmixed to
/// mono, with each chunk stamped by the JACK frame time of its first sample.
///
/// The ports belong to the `JackSession`'s current client; when the session re-creates the client (the server came
/// back), the input starts a new segment on the new client's rings and reports the gap and the reconnect.
///
/// Threads: `read(into:)` and `takeNotices()` from the channel's worker only; the rest (`backlogSeconds` among them)
/// from any thread.
final class JackChannelInput: ChannelInput, @unchecked Sendable {
  let channel: String
  let ports: [String]
  private let session: JackSession
  private let statusValue = Mutex<InputStatus>(.starting)
  private let xrunTotal = Atomic<Int>(0)
  private let rate = Atomic<Int>(0)
  /// The current client's rings for `backlogSeconds`, which any thread may ask: the worker's `rings`, shared.
  private let backlogRings = Mutex<[SPSCRingBuffer]>([])
  // Worker thread only.
  private var generation: JackSession.Generation?
  private var rings: [SPSCRingBuffer] = []
  private var overrunIndexes: [Int] = []
  private var overrunsSeen = 0
  private var segment = 0
  private var framesConsumed = 0
  private var framesDropped = 0
  /// JACK frame of ring sample 0: frame(k) = frameOffset &+ k. Re-derived after an xrun, which can skip cycles.
  private var frameOffset: UInt32?
  private var xrunsSeen = 0
  private var xrunsUnreported = 0
  private var lastXrunNotice = 0.0
  private var lastAudioEnd: Double?
  /// The segment of the chunk that ended at `lastAudioEnd`.
  private var lastAudioSegment = 0
  private var notices: [InputNotice] = []
  private let scratch: UnsafeMutableBufferPointer<Float>

  init(channel: String, ports: [String], session: JackSession, maxFrames: Int = 8192) {
    self.channel = channel
    self.ports = ports
    self.session = session
    scratch = .allocate(capacity: maxFrames)
    scratch.initialize(repeating: 0)
  }

  deinit { scratch.deallocate() }

  var sourceDescription: String {
    let s = session.channels.first { $0.name == channel }?.source
    let from =
      s.map {
        $0.connect.isEmpty ? ($0.connectPattern.map { " ~ \($0)" } ?? "") : " ← " + $0.connect.joined(separator: ",")
      }
      ?? ""
    return "jack \(ports.joined(separator: ","))\(from)"
  }

  var status: InputStatus { statusValue.withLock { $0 } }

  var sourceSampleRate: Double? {
    let value = rate.load(ordering: .relaxed)
    return value > 0 ? Double(value) : nil
  }

  var xruns: Int { xrunTotal.load(ordering: .relaxed) }

  func start() throws {}

  /// Marks the input ended; what the rings still hold stays readable (the session closes the client).
  func stop() {
    statusValue.withLock { $0 = .ended }
  }

  func takeNotices() -> [InputNotice] {
    var all = notices + session.takeSourceNotices(channel: channel)
    notices.removeAll()
    all.sort { $0.startTime < $1.startTime }
    return all
  }

  /// What the port rings hold (the least of the two for a stereo channel, as `read` takes), at the capture's rate.
  /// From a thread other than the worker, a ring's count is read while the worker and the JACK callback may move it:
  /// it is off by at most what they moved meanwhile.
  var backlogSeconds: Double {
    let frames = backlogRings.withLock { rings in rings.map(\.availableToRead).min() }
    let rate = self.rate.load(ordering: .relaxed)
    guard let frames, rate > 0 else { return 0 }
    return Double(max(0, frames)) / Double(rate)
  }

  func read(into buffer: UnsafeMutableBufferPointer<Float>) -> InputChunk? {
    let current = session.current
    // Follow a new client (or the loss of the server) once what the old client's rings hold has been read.
    if current?.number != generation?.number && status != .ended && (rings.map(\.availableToRead).min() ?? 0) == 0 {
      switchGeneration(to: current)
    }
    guard let generation, !generation.capture.serverShutDown || rings.contains(where: { $0.availableToRead > 0 })
    else { return nil }
    let available = rings.map(\.availableToRead).min() ?? 0
    let frames = min(available, buffer.count, scratch.count)
    guard frames > 0 else { return nil }

    let target = UnsafeMutableBufferPointer(rebasing: buffer[0..<frames])
    _ = rings[0].read(into: target)
    if rings.count == 2 {
      let right = UnsafeMutableBufferPointer(rebasing: scratch[0..<frames])
      _ = rings[1].read(into: right)
      for i in 0..<frames { target[i] = 0.5 * (target[i] + right[i]) }
    }
    let capture = generation.capture
    let rate = Double(capture.sampleRate)
    let overruns = overrunIndexes.map(capture.overruns(ofPortAt:)).max() ?? 0
    if overruns > overrunsSeen {
      let dropped = overruns - overrunsSeen
      overrunsSeen = overruns
      framesDropped += dropped
      let at = lastAudioEnd ?? Date().timeIntervalSince1970
      notices.append(
        InputNotice(
          kind: .overrun, startTime: at, endTime: at + Double(dropped) / rate,
          detail: "\(dropped) samples dropped: the channel's worker fell behind (more worker threads or fewer channels)"
        ))
    }
    let position = framesConsumed + framesDropped
    let xrunsNow = capture.xruns
    if frameOffset == nil || xrunsNow != xrunsSeen {
      if xrunsNow > xrunsSeen {
        xrunTotal.wrappingAdd(xrunsNow - xrunsSeen, ordering: .relaxed)
        xrunsUnreported += xrunsNow - xrunsSeen
      }
      xrunsSeen = xrunsNow
      frameOffset = Self.frameOffset(of: capture)
    }
    var start =
      frameOffset.flatMap { capture.wallClockSeconds(ofFrame: $0 &+ UInt32(truncatingIfNeeded: position)) }
      ?? (lastAudioEnd ?? Date().timeIntervalSince1970)
    // JACK's estimate of a frame's time moves by microseconds as its clock filter follows the sound card: within a
    // segment a chunk starts no earlier than `maxBackstepFrames` before the previous one ended, so the stamps only
    // go forward and still follow JACK's clock (back by under a frame per chunk, forward at once).
    if let end = lastAudioEnd, lastAudioSegment == segment {
      start = max(start, end - Self.maxBackstepFrames / rate)
    }
    framesConsumed += frames
    lastAudioEnd = start + Double(frames) / rate
    lastAudioSegment = segment
    if xrunsUnreported > 0 && start - lastXrunNotice >= 10 {  // at most one notice per 10 s
      notices.append(
        InputNotice(
          kind: .xrun, startTime: start, endTime: start,
          detail: "\(xrunsUnreported) JACK xrun\(xrunsUnreported == 1 ? "" : "s"): the server missed its deadline "
            + "(\(xrunTotal.load(ordering: .relaxed)) since the start); audio may have been lost",
          logged: false))  // the session logs xruns once for all channels
      xrunsUnreported = 0
      lastXrunNotice = start
    }
    return InputChunk(frames: frames, sampleRate: rate, startTime: start, segment: segment)
  }

  /// How far, in frames, a chunk's time stamp may step back from where the previous chunk of its segment ended: under
  /// one frame, which `ChannelInput` allows a JACK input, and at 1,024-frame periods still 900 ppm of slew, more
  /// than any sound card's clock drifts from the system's.
  static let maxBackstepFrames = 0.9

  /// The JACK frame of ring sample 0: from the first cycle's frame time while no cycle was skipped; after an xrun,
  /// from the latest cycle (its frame time and how many frames the rings had received by then).
  private static func frameOffset(of capture: JackCapture) -> UInt32? {
    if capture.xruns == 0 { return capture.firstFrameTime }
    for _ in 0..<8 {
      let before = capture.framesProcessed
      let cycleStart = capture.lastFrameTime
      guard capture.framesProcessed == before, before > 0 else { continue }
      // Ring sample `before - bufferSize` was the first of the latest cycle, at frame `cycleStart`.
      return cycleStart &- UInt32(truncatingIfNeeded: before - capture.bufferSize)
    }
    return capture.firstFrameTime
  }

  /// Follows the session to a new client (or to none while the server is away).
  private func switchGeneration(to next: JackSession.Generation?) {
    if generation != nil, let lastAudioEnd {
      notices.append(
        InputNotice(
          kind: .gap, startTime: lastAudioEnd,
          detail: "JACK server went away; no audio until it returns (the monitor re-creates its client then)"))
    }
    generation = next
    guard let next else {
      rings = []
      backlogRings.withLock { $0 = [] }
      statusValue.withLock { $0 = .reconnecting }
      return
    }
    let capture = next.capture
    self.rate.store(capture.sampleRate, ordering: .relaxed)
    let indexes = ports.compactMap { capture.portNames.firstIndex(of: $0) }
    rings = indexes.map { capture.rings[$0] }
    backlogRings.withLock { [rings] in $0 = rings }
    overrunIndexes = indexes
    overrunsSeen = 0
    frameOffset = nil
    xrunsSeen = 0
    framesConsumed = 0
    framesDropped = 0
    if segment > 0 || lastAudioEnd != nil {
      let now = Date().timeIntervalSince1970
      notices.append(
        InputNotice(
          kind: .reconnect, startTime: now, endTime: now,
          detail: "JACK client '\(capture.clientName)' re-created; capturing \(ports.joined(separator: ", ")) again"))
    }
    segment += 1
    statusValue.withLock { $0 = .running }
  }
}
