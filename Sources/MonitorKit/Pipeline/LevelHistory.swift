import Foundation

/// A channel's level over the last couple of minutes, second by second of audio: the peak of each whole wall-clock
/// second the channel heard, in dBFS (−∞ for digital silence, NaN for a second without audio). The alerts read it
/// (`AlertEvaluator`'s silence), so that a silence is timed by the audio itself, to the second, however rarely
/// the status is read; the console's meter is `ChannelStatus.peakLevelDB`.
///
/// A value type: safe to pass between threads (the channel's worker writes its copy, the status hands out copies).
struct LevelHistory: Sendable, Equatable {
  /// Seconds kept: enough for the evaluator, which reads every fraction of a second, to miss none even while the
  /// machine is busy, and small enough to copy with each status (480 bytes).
  static let keptSeconds = 120

  /// The wall-clock second (seconds since 1970) of `peaksDB[0]`.
  private(set) var firstSecond: Int64 = 0
  /// One peak per second from `firstSecond`; the last one may still grow.
  private(set) var peaksDB: [Float] = []

  /// The newest second with audio, nil before the first audio.
  var lastSecond: Int64? { peaksDB.isEmpty ? nil : firstSecond + Int64(peaksDB.count) - 1 }

  /// The peak of `second`; nil when it is not kept, NaN when it had no audio.
  func peakDB(at second: Int64) -> Float? {
    let index = second - firstSecond
    return index >= 0 && index < peaksDB.count ? peaksDB[Int(index)] : nil
  }

  /// Notes the audio `samples` (at `sampleRate`), whose first sample is at `time` (seconds since 1970): each part of
  /// it counts for the wall-clock second it lies in, so that a chunk that crosses a second's boundary lends its level
  /// to neither side's other part, and a second's peak is that of its own audio. Returns the peak of all of
  /// `samples`, in dBFS (−∞ for digital silence).
  @discardableResult
  mutating func add(_ samples: UnsafeBufferPointer<Float>, sampleRate: Double, at time: Double) -> Float {
    guard time.isFinite, sampleRate > 0 else { return Self.peakDB(samples[...]) }
    var chunkPeak: Float = -.infinity
    var start = 0
    while start < samples.count {
      let startTime = time + Double(start) / sampleRate
      let second = startTime.rounded(.down)
      // The first sample at or after the next second (at least one further sample, whatever the rounding).
      let next = Int(((second + 1 - time) * sampleRate).rounded(.up))
      let end = min(samples.count, max(start + 1, next))
      let peak = Self.peakDB(samples[start..<end])
      add(peakDB: peak, at: startTime)
      chunkPeak = max(chunkPeak, peak)
      start = end
    }
    return chunkPeak
  }

  /// The peak of `samples` in dBFS (−∞ for digital silence).
  private static func peakDB(_ samples: Slice<UnsafeBufferPointer<Float>>) -> Float {
    var peak: Float = 0
    for sample in samples { peak = max(peak, abs(sample)) }
    return peak > 0 ? 20 * log10(peak) : -.infinity
  }

  /// Notes audio whose peak is `peakDB` at `time` (seconds since 1970), all of it in `time`'s second.
  mutating func add(peakDB: Float, at time: Double) {
    guard time.isFinite else { return }
    let second = Int64(time.rounded(.down))
    guard let last = lastSecond else {
      firstSecond = second
      peaksDB = [peakDB]
      return
    }
    if second < firstSecond { return }
    if second <= last {
      let index = Int(second - firstSecond)
      peaksDB[index] = peaksDB[index].isNaN ? peakDB : max(peaksDB[index], peakDB)
      return
    }
    let skipped = Int(min(second - last - 1, Int64(Self.keptSeconds)))
    peaksDB.append(contentsOf: repeatElement(.nan, count: skipped))
    peaksDB.append(peakDB)
    firstSecond = second - Int64(peaksDB.count) + 1
    if peaksDB.count > Self.keptSeconds {
      let drop = peaksDB.count - Self.keptSeconds
      peaksDB.removeFirst(drop)
      firstSecond += Int64(drop)
    }
  }

  static func == (a: LevelHistory, b: LevelHistory) -> Bool {
    a.firstSecond == b.firstSecond && a.peaksDB.count == b.peaksDB.count
      && zip(a.peaksDB, b.peaksDB).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
  }
}
