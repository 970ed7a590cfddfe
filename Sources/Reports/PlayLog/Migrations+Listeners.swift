/// The listener counts `run` samples from Icecast's stats endpoint (`report soundexchange` reads them): kept apart
/// from the plays' schema so that it merges as one entry of the list.
extension Migrations {
  /// One row per sample of a channel's stream listeners: the count Icecast gave at `sampled_at_ms` (milliseconds
  /// since 1970, UTC), in force until the channel's next sample. A sample is identified by its channel and time (the
  /// unique key), so that writing it again from the spool leaves one row.
  static let listenerSamples = Migration(
    id: "008_listener_samples",
    sql: """
      CREATE TABLE listener_samples(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        sampled_at_ms INTEGER NOT NULL,
        listeners INTEGER NOT NULL,
        UNIQUE(channel_id, sampled_at_ms)
      );
      """)
}
