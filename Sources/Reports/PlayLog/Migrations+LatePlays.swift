/// Promoting a cluster of unknown music to the catalog (`catalog add --from-unknown`), kept apart from the plays'
/// schema so that it merges as one entry of the list.
extension Migrations {
  /// `plays.status` may be `late` (a play identified after it aired) and `plays.identified_at_ms` says when it was
  /// (NULL for every other play). `unknown_segments.play_id` is the play a promoted segment became (NULL while it is
  /// unknown), so that a second promotion writes no play twice; it is not a foreign key, because a report's read of
  /// a span of a PostgreSQL play log may hold a segment without its play.
  ///
  /// SQLite cannot change a column's CHECK, so its plays table is rebuilt (same columns, rows and ids, and the
  /// indexes of 002 and 006); PostgreSQL replaces the constraint in place (``Migration/postgreSQL``).
  static let latePlays = Migration(
    id: "007_late_plays",
    sql: """
      CREATE TABLE plays_007(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        item_id INTEGER NOT NULL REFERENCES catalog_items(id),
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        ref_offset_ms INTEGER NOT NULL,
        speed REAL NOT NULL,
        confidence REAL NOT NULL,
        detected_at_ms INTEGER NOT NULL,
        status TEXT NOT NULL CHECK(status IN ('open', 'closed', 'recovered', 'late')),
        updated_at_ms INTEGER NOT NULL,
        node TEXT NOT NULL DEFAULT '',
        identified_at_ms INTEGER
      );
      INSERT INTO plays_007(id, channel_id, item_id, start_ms, end_ms, ref_offset_ms, speed, confidence,
        detected_at_ms, status, updated_at_ms, node)
      SELECT id, channel_id, item_id, start_ms, end_ms, ref_offset_ms, speed, confidence, detected_at_ms, status,
        updated_at_ms, node FROM plays;
      DROP TABLE plays;
      ALTER TABLE plays_007 RENAME TO plays;
      CREATE INDEX plays_by_start ON plays(start_ms);
      CREATE INDEX plays_by_channel_start_item ON plays(channel_id, start_ms, item_id, end_ms);
      CREATE INDEX plays_open_by_node ON plays(node) WHERE status = 'open';
      ALTER TABLE unknown_segments ADD COLUMN play_id INTEGER;
      """,
    postgreSQL: """
      ALTER TABLE plays DROP CONSTRAINT plays_status_check;
      ALTER TABLE plays ADD CONSTRAINT plays_status_check CHECK(status IN ('open', 'closed', 'recovered', 'late'));
      ALTER TABLE plays ADD COLUMN identified_at_ms BIGINT;
      ALTER TABLE unknown_segments ADD COLUMN play_id BIGINT;
      """)
}
