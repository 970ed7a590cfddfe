import Common
import Foundation

/// Turns a matcher's stream time (seconds of audio since the segment began) into wall-clock time.
///
/// The input stamps every chunk with the wall-clock time of its first sample (for JACK, from JACK's frame time). A
/// sound card's sample clock drifts against the wall clock by up to ~100 ppm (several seconds a day), and dropped
/// audio shifts the two apart at once, so the clock keeps anchors (stream second → wall second): a new one whenever
/// the prediction from the last anchor is off by more than `toleranceSeconds`, and at least every
/// `intervalSeconds`. A stream time maps through the newest anchor at or before it.
///
/// Threads: the channel's worker only.
struct StreamClock {
  private var anchors: [(stream: Double, wall: Double)] = []
  let toleranceSeconds: Double
  let intervalSeconds: Double
  let keepSeconds: Double

  /// - Parameters:
  ///   - toleranceSeconds: re-anchor when the wall-clock prediction is off by more than this.
  ///   - intervalSeconds: re-anchor at least this often.
  ///   - keepSeconds: forget anchors older than this (plays never reach further back).
  init(toleranceSeconds: Double = 0.02, intervalSeconds: Double = 60, keepSeconds: Double = 4 * 3600) {
    self.toleranceSeconds = toleranceSeconds
    self.intervalSeconds = intervalSeconds
    self.keepSeconds = keepSeconds
  }

  /// Notes that stream time `stream` was heard at wall-clock time `wall`.
  mutating func observe(stream: Double, wall: Double) {
    if let last = anchors.last {
      let predicted = last.wall + (stream - last.stream)
      guard abs(predicted - wall) > toleranceSeconds || stream - last.stream >= intervalSeconds else { return }
    }
    anchors.append((stream, wall))
    if let first = anchors.first, stream - first.stream > keepSeconds, anchors.count > 2 {
      anchors.removeFirst()
    }
  }

  /// Wall-clock seconds since 1970 of stream time `stream` (before any anchor: extrapolated from the first).
  func wallSeconds(atStream stream: Double) -> Double {
    guard let first = anchors.first else { return stream }
    guard stream >= first.stream else { return first.wall + (stream - first.stream) }
    // The last anchor at or before `stream` (the first is).
    let anchor = anchors[BinarySearch.partitionPoint(in: anchors.indices) { anchors[$0].stream <= stream } - 1]
    return anchor.wall + (stream - anchor.stream)
  }

  /// The same as a `Date`.
  func date(atStream stream: Double) -> Date { Date(timeIntervalSince1970: wallSeconds(atStream: stream)) }

  /// Forgets every anchor (a new segment starts).
  mutating func reset() { anchors.removeAll() }

  /// How many anchors are kept (for tests).
  var anchorCount: Int { anchors.count }
}
