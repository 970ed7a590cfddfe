import CSQLite

/// Reading the traffic schedule (`report reconcile`).
extension PlayLogReader {
  /// True when the file has the schedule table (a play log opened by this version or later).
  package func hasSchedule() throws -> Bool {
    try database.hasTable("schedule")
  }

  /// The spots scheduled on `channelID` in `[from, to)`, by time then cart, with their channel's name.
  package func scheduledSpots(channelID: Int64, fromMilliseconds: Int64, toMilliseconds: Int64) throws
    -> [ScheduledSpot]
  {
    let name = try channelName(channelID)
    var spots: [ScheduledSpot] = []
    try database.forEachRow(
      """
      SELECT scheduled_at_ms, cart, advertiser, title, length_ms FROM schedule
      WHERE channel_id = ? AND scheduled_at_ms >= ? AND scheduled_at_ms < ?
      ORDER BY scheduled_at_ms, cart
      """, [.integer(channelID), .integer(fromMilliseconds), .integer(toMilliseconds)]
    ) { row in
      spots.append(
        ScheduledSpot(
          channel: name, scheduledAtMilliseconds: try row.int64(0), cart: try row.string(1),
          advertiser: try row.string(2), title: try row.string(3), lengthMilliseconds: try row.optionalInt64(4)))
    }
    return spots
  }

  /// The first and last scheduled time on `channelID`; nil when nothing is scheduled there.
  package func scheduleRange(channelID: Int64) throws -> (first: Int64, last: Int64)? {
    guard
      let row = try database.firstRow(
        "SELECT min(scheduled_at_ms), max(scheduled_at_ms) FROM schedule WHERE channel_id = ?",
        [.integer(channelID)]),
      let first = try row.optionalInt64(0), let last = try row.optionalInt64(1)
    else { return nil }
    return (first, last)
  }
}
