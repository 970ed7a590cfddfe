/// How long a `StreamInput` waits before it tries a failed stream again: 1, 2, 4, 8, 16 s, then 30 s for every
/// further failure, so that a stream that keeps failing neither spins the CPU nor hammers its server. A connection
/// that delivered a minute of audio before it failed starts the sequence again at 1 s.
///
/// Threads: a value; the reader thread owns it.
struct ReconnectBackoff: Sendable {
  /// The first delay, in seconds.
  static let initialSeconds = 1.0
  /// The longest delay, in seconds.
  static let maximumSeconds = 30.0
  /// A connection that delivered this many seconds of audio counts as a success and resets the delays.
  static let resetAfterSeconds = 60.0

  /// Failures since the last good connection.
  private(set) var failures = 0

  /// The delay before the next attempt, after an attempt that delivered `goodAudioSeconds` of audio before it ended.
  mutating func nextDelay(goodAudioSeconds: Double) -> Double {
    if goodAudioSeconds >= Self.resetAfterSeconds { failures = 0 }
    var delay = Self.initialSeconds
    for _ in 0..<min(failures, 16) { delay *= 2 }
    failures += 1
    return min(delay, Self.maximumSeconds)
  }
}
