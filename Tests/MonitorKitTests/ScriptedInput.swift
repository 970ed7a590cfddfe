import Foundation
import Synchronization

@testable import MonitorKit

/// A `ChannelInput` that plays back prepared mono audio in chunks, as fast as it is read, with the segments, time
/// stamps and notices a test gives it.
final class ScriptedInput: ChannelInput, @unchecked Sendable {
  struct Segment {
    var samples: [Float]
    var startTime: Double
    var notices: [InputNotice] = []
  }

  let sampleRate: Double
  let chunkFrames: Int
  private let state:
    Mutex<
      (segments: [Segment], index: Int, position: Int, notices: [InputNotice], held: Bool, stopped: Bool)
    >

  /// Whether the input keeps running after its last segment, with no audio, until `stop()` (a live source gone
  /// quiet), instead of ending (a file played to its end).
  let runsOnAfterEnd: Bool

  init(segments: [Segment], sampleRate: Double = 8000, chunkFrames: Int = 1024, runsOnAfterEnd: Bool = false) {
    self.sampleRate = sampleRate
    self.chunkFrames = chunkFrames
    self.runsOnAfterEnd = runsOnAfterEnd
    state = Mutex((segments, 0, 0, segments.first?.notices ?? [], false, false))
  }

  var sourceDescription: String { "scripted" }

  var status: InputStatus {
    state.withLock { $0.stopped || ($0.index >= $0.segments.count && !runsOnAfterEnd) ? .ended : .running }
  }

  func start() throws {}
  /// Ends the input for good, as `ChannelInput` says: `read` returns nil afterwards.
  func stop() { state.withLock { $0.stopped = true } }

  /// Stops delivering audio until `release()`, so a test can look at the play log mid-stream.
  func hold() { state.withLock { $0.held = true } }
  func release() { state.withLock { $0.held = false } }

  /// Seconds of audio delivered so far in the current segment.
  var deliveredSeconds: Double { state.withLock { Double($0.position) / sampleRate } }

  /// Nothing waits: the audio is delivered when it is asked for, as fast as that is.
  var backlogSeconds: Double { 0 }

  func takeNotices() -> [InputNotice] {
    state.withLock { s in
      defer { s.notices.removeAll() }
      return s.notices
    }
  }

  func read(into buffer: UnsafeMutableBufferPointer<Float>) -> InputChunk? {
    state.withLock { s -> InputChunk? in
      guard !s.held && !s.stopped else { return nil }
      while s.index < s.segments.count && s.position >= s.segments[s.index].samples.count {
        s.index += 1
        s.position = 0
        if s.index < s.segments.count { s.notices += s.segments[s.index].notices }
      }
      guard s.index < s.segments.count else { return nil }
      let segment = s.segments[s.index]
      let frames = min(chunkFrames, buffer.count, segment.samples.count - s.position)
      for i in 0..<frames { buffer[i] = segment.samples[s.position + i] }
      let start = segment.startTime + Double(s.position) / sampleRate
      s.position += frames
      return InputChunk(frames: frames, sampleRate: sampleRate, startTime: start, segment: s.index)
    }
  }
}
