/// A half-open span of time, `[start, end)` in milliseconds since 1970 UTC: a play belongs to the period its start
/// falls in, so consecutive periods never count a play twice.
///
/// A value type: safe to pass between threads.
package struct ReportPeriod: Sendable, Hashable {
  package var startMilliseconds: Int64
  package var endMilliseconds: Int64

  package init(startMilliseconds: Int64, endMilliseconds: Int64) {
    self.startMilliseconds = startMilliseconds
    self.endMilliseconds = endMilliseconds
  }

  /// True when `milliseconds` is in `[start, end)`.
  package func contains(_ milliseconds: Int64) -> Bool {
    milliseconds >= startMilliseconds && milliseconds < endMilliseconds
  }
}
