import Foundation

@testable import MonitorKit

/// Plays the channel worker for a `ChannelInput` in a test: polls `read(into:)` and `takeNotices()` every 20 ms and
/// keeps everything, with the wall-clock time at which each chunk was read.
/// Threads: one test thread (it is the input's worker thread).
final class InputRecorder {
  let input: any ChannelInput
  private(set) var chunks: [InputChunk] = []
  /// Wall-clock time (seconds since 1970) at which each chunk of `chunks` was read.
  private(set) var readTimes: [Double] = []
  private(set) var notices: [InputNotice] = []
  /// Each status seen, without repeats.
  private(set) var statuses: [InputStatus] = []
  /// ffmpeg process IDs seen (for a `StreamInput`).
  private(set) var processIDs: Set<Int32> = []
  private var buffer: [Float]

  init(_ input: any ChannelInput, bufferFrames: Int = 4096) {
    self.input = input
    buffer = [Float](repeating: 0, count: bufferFrames)
  }

  /// Reads until `condition` holds (true) or `seconds` have passed (false).
  @discardableResult
  func pump(seconds: Double, until condition: (InputRecorder) -> Bool = { _ in false }) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      poll()
      if condition(self) { return true }
      if Date() >= deadline { return false }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// One round: every chunk waiting, the notices, the status.
  func poll() {
    while let chunk = read(frames: buffer.count) { _ = chunk }
    notices += input.takeNotices()
    let status = input.status
    if statuses.last != status { statuses.append(status) }
    if let stream = input as? StreamInput, let pid = stream.ffmpegProcessID { processIDs.insert(pid) }
  }

  /// Reads one chunk of at most `frames` frames, and records it.
  @discardableResult
  func read(frames: Int) -> InputChunk? {
    if buffer.count < frames { buffer = [Float](repeating: 0, count: frames) }
    let chunk = buffer.withUnsafeMutableBufferPointer {
      input.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<frames]))
    }
    if let chunk {
      chunks.append(chunk)
      readTimes.append(Date().timeIntervalSince1970)
    }
    return chunk
  }

  /// Frames read in all, or in one segment.
  func frames(segment: Int? = nil) -> Int {
    chunks.filter { segment == nil || $0.segment == segment }.reduce(0) { $0 + $1.frames }
  }

  /// The segments seen, in order.
  var segments: [Int] {
    chunks.reduce(into: []) { list, chunk in if list.last != chunk.segment { list.append(chunk.segment) } }
  }

  /// Problems with the chunks' time stamps: within a segment each chunk must start where the one before ended, and
  /// segments must not go back in number or in time.
  func timeProblems() -> [String] {
    var problems: [String] = []
    for (previous, chunk) in zip(chunks, chunks.dropFirst()) {
      let previousEnd = previous.startTime + Double(previous.frames) / previous.sampleRate
      if chunk.segment == previous.segment {
        if abs(chunk.startTime - previousEnd) > 1e-6 {
          problems.append("segment \(chunk.segment): chunk at \(chunk.startTime) does not follow \(previousEnd)")
        }
      } else if chunk.segment < previous.segment || chunk.startTime < previousEnd - 1e-6 {
        problems.append(
          "segment \(chunk.segment) at \(chunk.startTime) goes back from \(previous.segment) at \(previousEnd)")
      }
    }
    return problems
  }
}
