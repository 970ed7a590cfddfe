import Synchronization

/// The part of a `StreamInput` that its threads share, behind one lock: the status, the notices waiting for the
/// worker, the segment table and the worker's ring position. A class, so that the input and its reader thread hold
/// the same lock.
///
/// Threads: any thread, only through `withLock`. The reader thread writes `status`, the notices, `segments` and the
/// ffmpeg counters; the worker reads the segments, moves `readPosition` and takes the notices; the control thread
/// sets `started` and `stopRequested`.
final class StreamInputShared: Sendable {
  /// At most this many notices wait for the worker; past that the oldest are dropped (a worker that never calls
  /// `takeNotices` must not make the input grow without bound).
  static let noticeLimit = 1000

  struct State: Sendable {
    var status = InputStatus.starting
    private(set) var notices: [InputNotice] = []
    var segments = SegmentTable()
    /// Ring position of the next sample the worker reads (every sample ever read).
    var readPosition = 0
    /// Set once by `stop()`: the reader thread ends and `read` returns nil.
    var stopRequested = false
    /// Set once by `start()`.
    var started = false
    /// The running ffmpeg's process ID, nil between attempts. For tests and diagnostics.
    var ffmpegProcessID: Int32?
    /// ffmpeg processes started so far. For tests and diagnostics.
    var ffmpegLaunches = 0

    /// Queues `notice` for the worker.
    mutating func post(_ notice: InputNotice) {
      if notices.count >= StreamInputShared.noticeLimit { notices.removeFirst() }
      notices.append(notice)
    }

    /// Hands the queued notices over, oldest first.
    mutating func takeNotices() -> [InputNotice] {
      defer { notices.removeAll() }
      return notices
    }
  }

  private let state = Mutex(State())

  /// Runs `body` with the state, under the lock. Keep it short: the worker and the reader thread wait for it.
  func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
    state.withLock { body(&$0) }
  }
}
