/// The traffic schedule in a PostgreSQL play log (`schedule import`), as ``PlayLogStore/importSchedule(_:)`` writes it
/// in SQLite: the nodes' `report reconcile` reads it there.
extension PostgreSQLPlayLogStore {
  /// Adds `spots` in one transaction: all of them or none. A spot already in the log (same channel, time and cart,
  /// the cart in any case: `ScheduledSpot.sameCart`) is replaced, spelling included; the spots in `replacing` are
  /// removed first, in the same transaction. The schedule's channels are not claimed: a schedule is written beside
  /// the nodes that monitor them. Returns how many rows were written.
  package func importSchedule(_ spots: [ScheduledSpot], replacing spans: [ScheduleSpan] = []) throws -> Int {
    try connection.transaction {
      for span in spans {
        try connection.query(
          "DELETE FROM schedule WHERE channel_id = (SELECT id FROM channels WHERE name = $1) "
            + "AND scheduled_at_ms >= $2 AND scheduled_at_ms < $3",
          [.text(span.channel), .integer(span.fromMilliseconds), .integer(span.toMilliseconds)])
      }
      for spot in spots {
        let channel = try anyChannelID(named: spot.channel)
        let atTheSameTime = try connection.query(
          "SELECT id, cart FROM schedule WHERE channel_id = $1 AND scheduled_at_ms = $2",
          [.integer(channel), .integer(spot.scheduledAtMilliseconds)]
        ).map { (id: try $0.int64(0), cart: try $0.string(1)) }
        for id in spot.otherSpellings(among: atTheSameTime) {
          try connection.query("DELETE FROM schedule WHERE id = $1", [.integer(id)])
        }
        try connection.query(
          """
          INSERT INTO schedule(channel_id, scheduled_at_ms, cart, advertiser, title, length_ms)
          VALUES($1, $2, $3, $4, $5, $6)
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
