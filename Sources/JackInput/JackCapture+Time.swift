import CJack
import Glibc

/// Turning JACK frame numbers into time: what a worker needs to stamp the samples it reads from a ring with the
/// wall-clock time at which they were captured.
///
/// The `k`-th sample ever read from any of the rings was captured at JACK frame `firstFrameTime! &+ UInt32(k)`, as
/// long as `overruns` and `xruns` stayed 0 (an overrun drops samples from a ring; an xrun can skip a cycle).
/// `wallClockSeconds(ofFrame:)` turns such a frame into seconds since 1970.
extension JackCapture {
  /// JACK's frame time at the start of the first cycle the capture processed: the frame of the first sample in
  /// every ring. `nil` until that cycle ran. Recorded by the process thread; any thread may read it.
  public var firstFrameTime: UInt32? {
    guard state.pointee.firstFrameRecorded.load(ordering: .acquiring) else { return nil }
    return state.pointee.firstFrameTime.load(ordering: .relaxed)
  }

  /// JACK's estimate of when `frame` was (or will be) at the driver, `usecs`, and JACK's clock now, `nowUsecs`,
  /// both in microseconds of JACK's monotonic clock (`jack_frames_to_time`, `jack_get_time`). The frame must lie
  /// within about 12 hours of now (frame times wrap at 2^32). `nil` once the capture is closed or its server shut
  /// down. Non-JACK thread (control or worker; never a JACK callback).
  public func jackTime(ofFrame frame: UInt32) -> (usecs: UInt64, nowUsecs: UInt64)? {
    client.withLock { client in
      guard let client, !serverShutDown else { return nil }
      let usecs = jack_frames_to_time(client, frame)
      return (usecs, jack_get_time())
    }
  }

  /// The wall-clock time of `frame` in seconds since 1970 (UTC): the system's real-time clock now, less how long
  /// ago JACK's clock says the frame was (`jackTime(ofFrame:)`). A future frame gives a future time. `nil` once the
  /// capture is closed or its server shut down. Non-JACK thread (control or worker).
  ///
  /// The two clocks are read as a pair: JACK's clock before and after the real-time clock, kept only when the
  /// reads lie within `clockPairMaxMicroseconds` of each other, so that a thread preempted between them does not
  /// shift the time by however long it waited (up to `clockPairAttempts` tries; the closest pair otherwise).
  public func wallClockSeconds(ofFrame frame: UInt32) -> Double? {
    client.withLock { client -> Double? in
      guard let client, !serverShutDown else { return nil }
      let usecs = jack_frames_to_time(client, frame)
      var best: (spanUsecs: UInt64, jackUsecs: UInt64, realtime: timespec)?
      for _ in 0..<Self.clockPairAttempts {
        let before = jack_get_time()
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        let after = jack_get_time()
        let span = after &- before
        if best == nil || span < best!.spanUsecs {
          best = (span, before &+ span / 2, realtime)
        }
        if span <= Self.clockPairMaxMicroseconds { break }
      }
      guard let best else { return nil }
      let ago = Double(Int64(bitPattern: best.jackUsecs &- usecs)) / 1_000_000
      return Double(best.realtime.tv_sec) + Double(best.realtime.tv_nsec) / 1_000_000_000 - ago
    }
  }

  /// The most JACK's clock may advance around a read of the real-time clock for the pair to count as one instant:
  /// the reads take about a microsecond; more means the thread was preempted between them.
  static let clockPairMaxMicroseconds: UInt64 = 20
  /// How often to read the pair before taking the closest one seen.
  static let clockPairAttempts = 4
}
