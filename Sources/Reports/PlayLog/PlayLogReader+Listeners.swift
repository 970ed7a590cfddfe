/// Reading the stream listener samples (`report soundexchange`).
extension PlayLogReader {
  /// True when the file has the listener samples' table (a play log opened by this version or later).
  package func hasListenerSamples() throws -> Bool {
    try database.hasTable("listener_samples")
  }

  /// The listener samples of `channelID` in `[from, to)`, by time, with the last one before `from` (the count in
  /// force when the span begins); empty when the channel has none or the file has no such table.
  package func listenerSamples(channelID: Int64, fromMilliseconds: Int64, toMilliseconds: Int64) throws
    -> [(sampledAtMilliseconds: Int64, listeners: Int64)]
  {
    guard try hasListenerSamples() else { return [] }
    var samples: [(sampledAtMilliseconds: Int64, listeners: Int64)] = []
    try database.forEachRow(
      """
      SELECT sampled_at_ms, listeners FROM (
        SELECT sampled_at_ms, listeners FROM listener_samples
        WHERE channel_id = ? AND sampled_at_ms < ? ORDER BY sampled_at_ms DESC LIMIT 1)
      UNION ALL
      SELECT sampled_at_ms, listeners FROM listener_samples
      WHERE channel_id = ? AND sampled_at_ms >= ? AND sampled_at_ms < ?
      ORDER BY sampled_at_ms
      """,
      [
        .integer(channelID), .integer(fromMilliseconds), .integer(channelID), .integer(fromMilliseconds),
        .integer(toMilliseconds),
      ]
    ) { row in
      samples.append((try row.int64(0), try row.int64(1)))
    }
    return samples
  }
}
