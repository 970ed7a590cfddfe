/// The traffic schedule's table in the play log (`schedule import`, `report reconcile`): kept apart from the plays'
/// schema so that it merges as one entry of the list.
extension Migrations {
  /// The spots the traffic system scheduled, one row per channel, time and cart; importing a log again replaces
  /// its rows (the unique key), so a corrected log can be imported over the first. Times are milliseconds since
  /// 1970, UTC; `length_ms` is NULL when the log does not give it.
  static let trafficSchedule = Migration(
    id: "003_traffic_schedule",
    sql: """
      CREATE TABLE schedule(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        scheduled_at_ms INTEGER NOT NULL,
        cart TEXT NOT NULL,
        advertiser TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        length_ms INTEGER,
        UNIQUE(channel_id, scheduled_at_ms, cart)
      );
      CREATE INDEX schedule_by_time ON schedule(scheduled_at_ms);
      """)
}
