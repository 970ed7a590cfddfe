/// How long a `StreamInput` waits before it tries a failed stream again, and how it notices sooner that the
/// source is back.
///
/// Attempts (one ffmpeg run each) follow after 1, 2, 4, 8, 16 s, then 30 s for every further failure. A connection
/// that delivered a minute of audio before it failed starts the sequence again at 1 s.
///
/// An attempt costs about 65 ms of CPU (ffmpeg's start and its failed connection, measured on a refused port on the
/// 2-core development machine). Capping the delay at 4 s instead would make 64 dead channels cost 16 launches a
/// second, about one core: hammering, if not the server, then the machine the monitor shares with its matchers.
/// So the delays stay long, and a wait longer than `probeIntervalSeconds` is watched by a `StreamProbe` (a TCP
/// connection and, for `http://`, one status line: a few system calls) every `probeIntervalSeconds`. When a probe
/// finds the source up after one in the same wait found it down, the wait ends and the attempt is made at once. The
/// stream is back within about `probeIntervalSeconds` + ffmpeg's connection + the 1 s in which the connection's start
/// is fixed (under 4 s; the goal is 5 s), where the last delay alone could leave 30 s of a song unheard.
///
/// Only a change from down to up ends a wait early, so a source the probe finds up while ffmpeg fails (an `https://`
/// mount that is gone, on a server that still accepts connections; a stream ffmpeg cannot decode) costs no more
/// attempts than the delays allow. Schemes the probe cannot check (`udp://`, `srt://` …) wait the whole delay.
///
/// Threads: a value; the reader thread owns it.
struct ReconnectBackoff: Sendable {
  /// The first delay, in seconds.
  static let initialSeconds = 1.0
  /// The longest delay, in seconds: a stream whose source the probe cannot see costs one attempt in this time.
  static let maximumSeconds = 30.0
  /// A connection that delivered this many seconds of audio counts as a success and resets the delays.
  static let resetAfterSeconds = 60.0
  /// Seconds between probes in a wait longer than this: most of the time the source may be back and unheard.
  /// 64 channels probing a dead server make 32 refused connections a second, which costs nothing measurable.
  static let probeIntervalSeconds = 2.0
  /// A probe without an answer within this time (a server that hangs, a route that drops packets) counts as down.
  static let probeTimeoutSeconds = 1.0

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

  /// True when a wait of `delaySeconds` is watched by probes.
  static func isProbed(delaySeconds: Double) -> Bool { delaySeconds > probeIntervalSeconds }
}
