/// One play as a report scans it: row ids instead of names and metadata (see ``PlayLogReader/items()`` and
/// ``PlayLogReader/channels()``), times in milliseconds. Small, so that a scan of millions of plays stays fast.
///
/// A value type: safe to pass between threads.
package struct PlaySpan: Sendable, Equatable {
  package var id: Int64
  package var channelID: Int64
  package var itemID: Int64
  package var startMilliseconds: Int64
  package var endMilliseconds: Int64
  package var refOffsetMilliseconds: Int64
  package var speed: Double
  package var confidence: Double
  package var detectedAtMilliseconds: Int64
  package var status: PlayStatus

  /// How long it was on air, in milliseconds.
  package var durationMilliseconds: Int64 { endMilliseconds - startMilliseconds }
}
