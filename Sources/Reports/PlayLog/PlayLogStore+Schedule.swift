/// The traffic schedule in the play log (`schedule import`).
extension PlayLogStore {
  /// Adds `spots` in one transaction, synced once: all of them or none. A spot already in the log (same channel,
  /// time and cart, the cart in any case: `ScheduledSpot.sameCart`) is replaced, so importing a corrected log again
  /// updates it, spelling included; the spots in `replacing` are removed first, in the same transaction. Returns how
  /// many rows were written.
  package func importSchedule(_ spots: [ScheduledSpot], replacing spans: [ScheduleSpan] = []) throws -> Int {
    try database.transaction {
      for span in spans {
        try database.run(
          "DELETE FROM schedule WHERE channel_id = (SELECT id FROM channels WHERE name = ?) "
            + "AND scheduled_at_ms >= ? AND scheduled_at_ms < ?",
          [.text(span.channel), .integer(span.fromMilliseconds), .integer(span.toMilliseconds)])
      }
      for spot in spots {
        let channel = try channelID(named: spot.channel)
        let atTheSameTime = try database.query(
          "SELECT id, cart FROM schedule WHERE channel_id = ? AND scheduled_at_ms = ?",
          [.integer(channel), .integer(spot.scheduledAtMilliseconds)]
        ).map { (id: try $0.int64(0), cart: try $0.string(1)) }
        for id in spot.otherSpellings(among: atTheSameTime) {
          try database.run("DELETE FROM schedule WHERE id = ?", [.integer(id)])
        }
        try database.run(
          """
          INSERT INTO schedule(channel_id, scheduled_at_ms, cart, advertiser, title, length_ms)
          VALUES(?, ?, ?, ?, ?, ?)
          ON CONFLICT(channel_id, scheduled_at_ms, cart) DO UPDATE SET
            advertiser = excluded.advertiser, title = excluded.title, length_ms = excluded.length_ms
          """,
          [
            .integer(channel), .integer(spot.scheduledAtMilliseconds), .text(spot.cart),
            .text(spot.advertiser), .text(spot.title), .integer(spot.lengthMilliseconds),
          ])
      }
      return spots.count
    }
  }
}
