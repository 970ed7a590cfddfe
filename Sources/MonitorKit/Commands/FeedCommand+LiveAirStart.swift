import Foundation
import Glibc
import JackInput
import Reports

extension FeedCommand {
  /// `feed --on-air-since TIME`: the file as live air that began at TIME. Live air does not wait for a player to
  /// start, so the feed's first sample is the file's sample of the moment it is played, not of the moment `feed`
  /// was asked to start: the process, the JACK client and ffmpeg may take seconds to start on a loaded machine.
  ///
  /// ffmpeg is started at the air position of the moment the client runs (`decodeFromSeconds()`); the decoded audio
  /// that arrives before the air position of the moment it would be played is then skipped (`framesToSkip`), chunk
  /// by chunk, until the decoder has caught up with the air. Decoding is many times faster than real time, so that
  /// takes a fraction of the delay.
  ///
  /// Times are seconds since 1970 (UTC) from `now`, the system's real-time clock unless a test gives another.
  struct LiveAirStart {
    /// When the file's first sample went on air.
    let sinceSeconds: Double
    let sampleRate: Int
    let now: () -> Double
    /// Frames decoded (and skipped) so far, from `decodeFromSeconds()`'s position.
    private(set) var framesDecoded = 0
    /// Where in the file the first frame to be played is, once a chunk reached the air position.
    private(set) var startSeconds: Double?

    init(sinceSeconds: Double, sampleRate: Int, now: @escaping () -> Double = LiveAirStart.realTimeSeconds) {
      self.sinceSeconds = sinceSeconds
      self.sampleRate = sampleRate
      self.now = now
    }

    /// How long until the file's first sample goes on air (0 or less: it is on air already).
    func secondsUntilOnAir() -> Double { sinceSeconds - now() }

    /// Where in the file the air is now: where to start decoding.
    func decodeFromSeconds() -> Double { max(0, now() - sinceSeconds) }

    /// The frames at the start of the next decoded chunk of `chunkFrames` frames (decoded from `from` seconds into
    /// the file) that are behind the air position of the moment they would play, `leadSeconds` from now: all of
    /// them while the decoder is behind the air, then fewer (and `startSeconds` is set), then 0.
    mutating func framesToSkip(decodedFromSeconds from: Double, chunkFrames: Int, leadSeconds: Double) -> Int {
      if startSeconds != nil { return 0 }
      let air = now() + leadSeconds - sinceSeconds
      let behind = Int(((air - from) * Double(sampleRate)).rounded()) - framesDecoded
      let skip = min(chunkFrames, max(0, behind))
      if skip < chunkFrames {
        startSeconds = from + Double(framesDecoded + skip) / Double(sampleRate)
      }
      framesDecoded += chunkFrames
      return skip
    }

    /// The real-time clock in seconds since 1970.
    static func realTimeSeconds() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
  }

  /// `--on-air-since`: an ISO 8601 time with seconds and a zone, e.g. `2026-05-04T06:00:00Z`; seconds since 1970.
  static func parseOnAirSince(_ text: String?) throws(UsageError) -> Double? {
    guard let text else { return nil }
    guard let date = ISO8601Millis.parse(text) else {
      throw UsageError(
        "--on-air-since \(text): give the time the file's first sample went on air, in ISO 8601 with seconds and "
          + "a zone, e.g. --on-air-since 2026-05-04T06:00:00Z")
    }
    return date.timeIntervalSince1970
  }

  /// Waits `seconds` in short sleeps, giving up as soon as the playback stops or its server shuts down.
  /// - Returns: true when the time was waited out.
  static func waitOrStop(seconds: Double, _ playback: JackPlayback) -> Bool {
    let end = LiveAirStart.realTimeSeconds() + seconds
    while !playback.isStopped, !playback.serverShutDown {
      let left = end - LiveAirStart.realTimeSeconds()
      guard left > 0 else { return true }
      usleep(UInt32(min(left, stopPollSeconds) * 1_000_000))
    }
    return false
  }

  /// How often a wait for the air checks for SIGINT and SIGTERM: at once, to a person.
  static let stopPollSeconds = 0.05
}
