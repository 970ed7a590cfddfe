import Synchronization

/// How long the play log's writes take, counted in buckets for `/metrics` (a Prometheus histogram): the writer
/// records each write, the HTTP server copies the counts.
///
/// Threads: `record` from the writer thread, `snapshot` from any thread; the lock is held for a few additions.
final class LatencyHistogram: Sendable {
  /// Upper bounds of the buckets, in seconds: from a write to the page cache (under a millisecond) to a disk that
  /// stalls for seconds; the last bucket (+Inf) is implicit.
  static let bucketBoundsSeconds: [Double] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  ]

  /// The counts at one moment: `counts[i]` writes took at most `bucketBoundsSeconds[i]` (not cumulative; the last
  /// element counts those above every bound).
  struct Snapshot: Sendable, Equatable {
    var counts: [Int]
    var sumSeconds: Double
    var total: Int { counts.reduce(0, +) }
  }

  private let state = Mutex(
    Snapshot(counts: [Int](repeating: 0, count: LatencyHistogram.bucketBoundsSeconds.count + 1), sumSeconds: 0))

  func record(seconds: Double) {
    let index = Self.bucketBoundsSeconds.firstIndex { seconds <= $0 } ?? Self.bucketBoundsSeconds.count
    state.withLock {
      $0.counts[index] += 1
      $0.sumSeconds += seconds
    }
  }

  var snapshot: Snapshot { state.withLock { $0 } }
}
