/// A stretch of one channel's traffic schedule that `schedule import --replace` empties before it writes the new
/// log's spots: one local day the log covers.
package struct ScheduleSpan: Sendable, Hashable {
  package var channel: String
  package var fromMilliseconds: Int64
  /// Exclusive.
  package var toMilliseconds: Int64

  package init(channel: String, fromMilliseconds: Int64, toMilliseconds: Int64) {
    self.channel = channel
    self.fromMilliseconds = fromMilliseconds
    self.toMilliseconds = toMilliseconds
  }
}
