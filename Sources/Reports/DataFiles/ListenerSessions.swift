import Common

/// The listeners of one stream as connection spans (from Icecast's access log): a listener connected at any time
/// during a play received part of it, so the play's performances are the spans that overlap it.
///
/// A span overlaps `[start, end)` when it began before `end` and did not end by `start`. Every span that ended by
/// `start` also began before `end`, so the count is (spans that began before `end`) − (spans that ended by
/// `start`): two binary searches over the sorted starts and ends, whatever the number of listeners.
///
/// A value type: safe to pass between threads.
package struct ListenerSessions: AudienceFigure {
  private let starts: [Int64]
  private let ends: [Int64]
  package let source: String

  /// Spans `[start, end)` in milliseconds since 1970; empty ones (a request that received nothing) are left out.
  package init(_ spans: [(startMilliseconds: Int64, endMilliseconds: Int64)], source: String) {
    let real = spans.filter { $0.endMilliseconds > $0.startMilliseconds }
    starts = real.map(\.startMilliseconds).sorted()
    ends = real.map(\.endMilliseconds).sorted()
    self.source = source
  }

  /// How many listener connections the log holds.
  package var count: Int { starts.count }

  package func performances(startMilliseconds: Int64, endMilliseconds: Int64) -> Double? {
    Double(Self.countBelow(starts, endMilliseconds) - Self.countBelow(ends, startMilliseconds + 1))
  }

  /// The number of `values` (sorted) below `limit`.
  private static func countBelow(_ values: [Int64], _ limit: Int64) -> Int {
    BinarySearch.partitionPoint(in: values.indices) { values[$0] < limit }
  }
}
