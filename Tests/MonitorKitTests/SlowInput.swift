import Foundation
import Synchronization

@testable import MonitorKit

/// A `ChannelInput` that passes another input through and takes `secondsPerRead` longer over each chunk it returns:
/// a channel worker made as slow as one whose matcher takes that long for a chunk. Everything else is the wrapped
/// input's (its ring, its backlog, its notices).
final class SlowInput: ChannelInput, @unchecked Sendable {
  let wrapped: any ChannelInput
  private let delay: Mutex<Double>
  private let returned = Mutex(0)

  init(_ wrapped: any ChannelInput, secondsPerRead: Double) {
    self.wrapped = wrapped
    delay = Mutex(secondsPerRead)
  }

  /// The time each chunk costs; 0 makes the worker as fast as it is. Any thread.
  var secondsPerRead: Double {
    get { delay.withLock { $0 } }
    set { delay.withLock { $0 = newValue } }
  }

  /// Chunks handed to the worker so far (a chunk is handed over once its delay is over). Any thread.
  var chunksReturned: Int { returned.withLock { $0 } }

  var sourceDescription: String { wrapped.sourceDescription }
  var status: InputStatus { wrapped.status }
  var backlogSeconds: Double { wrapped.backlogSeconds }
  func start() throws { try wrapped.start() }
  func stop() { wrapped.stop() }
  func takeNotices() -> [InputNotice] { wrapped.takeNotices() }

  func read(into buffer: UnsafeMutableBufferPointer<Float>) -> InputChunk? {
    guard let chunk = wrapped.read(into: buffer) else { return nil }
    let seconds = secondsPerRead
    if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    returned.withLock { $0 += 1 }
    return chunk
  }
}
