import Common

/// A stream's listener counts as `run` sampled them from Icecast's stats endpoint (the play log's
/// `listener_samples`): each sample is the number of listeners connected at its time, in force until the next one.
///
/// A play's performances are the most listeners in force at any time during it: the count at its start and every
/// sample taken while it aired. That is a floor of SoundExchange's performances (every listener who received any part
/// of the play): a listener who came and went between two samples is not seen, which the access log
/// (``ListenerSessions``) does see. A sample older than ``validMilliseconds`` at a play's start is not in force (the
/// monitor was not sampling, or the server did not answer): a play with no sample in force is not covered.
///
/// A value type: safe to pass between threads.
package struct ListenerSamples: AudienceFigure {
  /// How long `run` goes without writing an unchanged count again, in seconds: a count is written when it changes
  /// and at least this often, so that a quiet stream's samples stay in force and a stopped sampler's lapse.
  package static let rewriteUnchangedSeconds = 600.0
  /// The longest interval between two samples a channel may be given, in seconds (`icecastStatsSeconds`).
  package static let longestIntervalSeconds = 60.0
  /// How long a sample stays in force: the rewrite interval and two sampling intervals of margin.
  package static let validMilliseconds = Int64((rewriteUnchangedSeconds + 2 * longestIntervalSeconds) * 1000)

  private let times: [Int64]
  private let counts: [Int64]
  package let source: String

  /// `samples` in time order.
  package init(_ samples: [(sampledAtMilliseconds: Int64, listeners: Int64)], source: String) {
    times = samples.map(\.sampledAtMilliseconds)
    counts = samples.map(\.listeners)
    self.source = source
  }

  /// How many samples there are.
  package var count: Int { times.count }

  package func performances(startMilliseconds: Int64, endMilliseconds: Int64) -> Double? {
    // The first sample after the start; the one before it is in force at the start.
    let after = BinarySearch.partitionPoint(in: times.indices) { times[$0] <= startMilliseconds }
    var most: Int64?
    if after > 0, startMilliseconds - times[after - 1] <= Self.validMilliseconds { most = counts[after - 1] }
    var index = after
    while index < times.count && times[index] < endMilliseconds {
      most = max(most ?? 0, counts[index])
      index += 1
    }
    return most.map(Double.init)
  }
}
