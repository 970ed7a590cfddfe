/// The channel's level meter: the newest peak, or a louder earlier one falling back at `fallbackDBPerSecond` (as a
/// peak programme meter falls back), so that the console, which reads a few times a second, sees the peaks between
/// its reads.
///
/// Threads: a value; the channel's worker owns it.
struct LevelMeter {
  /// How fast an earlier peak falls back.
  static let fallbackDBPerSecond: Float = 20
  /// An earlier peak that has fallen below this is gone: digital silence then reads −∞ (`-inf`), not an ever lower
  /// figure. Below 16-bit audio's 96 dB of range, so that the quietest real signal still shows.
  static let floorDB: Float = -100

  /// The reading, in dBFS (−∞ before any audio).
  private(set) var readingDB: Float = -.infinity
  private var timeNanoseconds: UInt64 = 0

  /// The reading for a new peak of `peakDB` (−∞ for digital silence) at `nanoseconds` on a monotonic clock.
  mutating func reading(peakDB: Float, atNanoseconds nanoseconds: UInt64) -> Float {
    let fallen = readingDB - Self.fallbackDBPerSecond * Float(Double(nanoseconds &- timeNanoseconds) / 1e9)
    readingDB = max(peakDB, fallen < Self.floorDB ? -.infinity : fallen)
    timeNanoseconds = nanoseconds
    return readingDB
  }
}
