/// What several monitors (nodes) writing one play log need, kept apart from the plays' schema so that it merges as
/// one entry of the list. An SQLite play log has one writer, so its plays' node stays "" and its table of channel
/// owners empty; the columns are there so that the two engines share one schema (and `db copy` moves every row).
extension Migrations {
  /// `plays.node`: the node that recorded the play, so that its recovery after a crash touches only its own open
  /// plays. `channel_owners`: the node that holds each channel; a node holds it while its session holds its
  /// advisory lock (see `PostgreSQLPlayLogStore`), and another node may take a channel over only when that lock is
  /// free.
  static let nodes = Migration(
    id: "006_nodes",
    sql: """
      ALTER TABLE plays ADD COLUMN node TEXT NOT NULL DEFAULT '';
      CREATE INDEX plays_open_by_node ON plays(node) WHERE status = 'open';
      CREATE TABLE channel_owners(
        channel_id INTEGER NOT NULL PRIMARY KEY REFERENCES channels(id),
        node TEXT NOT NULL,
        since_ms INTEGER NOT NULL
      );
      """)
}
