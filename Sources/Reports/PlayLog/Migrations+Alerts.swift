/// The alerts' table in the play log (`run` writes it, `report alerts` reads it): kept apart from the plays' schema
/// so that it merges as one entry of the list.
extension Migrations {
  /// One row per alert: opened when a condition (silence, a source down, a lagging matcher, a play log that cannot
  /// be written, nothing from the catalog) has held long enough, closed (`end_ms` set) when it has cleared long
  /// enough. `channel_id` is NULL for an alert about the whole monitor. An alert is identified by its channel, kind
  /// and start (the unique index), so that writing it again from the spool finds it instead of adding a second row.
  /// Times are milliseconds since 1970, UTC; `end_ms` is NULL while the alert is open.
  static let alerts = Migration(
    id: "004_alerts",
    sql: """
      CREATE TABLE alerts(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER REFERENCES channels(id),
        kind TEXT NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER,
        detail TEXT NOT NULL DEFAULT ''
      );
      CREATE UNIQUE INDEX alerts_once ON alerts(coalesce(channel_id, 0), kind, start_ms);
      CREATE INDEX alerts_by_start ON alerts(start_ms);
      """)

  /// `alerts.node`: in a PostgreSQL play log, the node that opened the alert, so that its next start closes an alert
  /// of the whole monitor that a killed run left open, as it closes those of its channels; NULL in SQLite, whose
  /// play log has one writer.
  static let alertNodes = Migration(
    id: "012_alert_nodes",
    sql: """
      ALTER TABLE alerts ADD COLUMN node TEXT;
      """)
}
