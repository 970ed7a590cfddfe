import Foundation

/// Reading when a channel was not heard (`reconcile` tells a spot nobody could hear from one that did not air).
extension PlayLogReader {
  /// The spans in which `channelID` was not heard that overlap `[fromMilliseconds, toMilliseconds)`, oldest first:
  /// its gaps, each from the end of the last audio heard to where the audio came back. A gap written without an end
  /// (by a build before gaps got theirs, or one the monitor stopped during) ends at its channel's next reconnect or
  /// the monitor's next restart; `end` is nil when neither came (not heard since). The time after the channel's
  /// heartbeat (`channel_heartbeats`) is not heard either: a running monitor has not heard it yet (its heartbeat is
  /// seconds old), and one that was killed, and not started again, did not hear it.
  package func unheardSpans(channelID: Int64, fromMilliseconds: Int64, toMilliseconds: Int64) throws
    -> [(start: Int64, end: Int64?)]
  {
    var spans: [(start: Int64, end: Int64?)] = []
    // A play log written before migration 010_heartbeats has no heartbeats (reports open it read-only, unmigrated).
    let hasHeartbeats = try database.hasTable("channel_heartbeats")
    let heartbeats =
      hasHeartbeats
      ? "UNION ALL SELECT heard_through_ms, NULL FROM channel_heartbeats WHERE channel_id = ? AND heard_through_ms < ?"
      : ""
    try database.forEachRow(
      """
      SELECT start_ms, end_ms FROM (
        SELECT g.start_ms, \(Self.gapEnd(of: "g")) AS end_ms
        FROM events AS g WHERE g.channel_id = ? AND g.kind = 'gap' AND g.start_ms < ?
        \(heartbeats)
      )
      WHERE end_ms IS NULL OR end_ms > ?
      ORDER BY start_ms
      """,
      [.integer(channelID), .integer(toMilliseconds)]
        + (hasHeartbeats ? [.integer(channelID), .integer(toMilliseconds)] : []) + [.integer(fromMilliseconds)]
    ) { row in
      spans.append((try row.int64(0), try row.optionalInt64(1)))
    }
    return spans
  }

  /// SQL for the end of the gap `gap` (an alias of the events table, or its name): its `end_ms`, or, for a gap
  /// written without an end, its channel's next reconnect or the monitor's next restart; NULL when neither came.
  /// Shared by ``unheardSpans(channelID:fromMilliseconds:toMilliseconds:)`` and the reports' copy of a PostgreSQL
  /// play log, which takes the gaps that reach into a report's span by the same end.
  static func gapEnd(of gap: String) -> String {
    """
    coalesce(\(gap).end_ms, (SELECT min(r.start_ms) FROM events AS r WHERE r.start_ms >= \(gap).start_ms \
    AND r.id <> \(gap).id AND ((r.kind = 'reconnect' AND r.channel_id = \(gap).channel_id) \
    OR (r.kind = 'restart' AND r.channel_id IS NULL))))
    """
  }
}
