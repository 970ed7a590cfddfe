/// The running monitor's heartbeat, kept apart from the plays' schema so that it merges as one entry of the list.
extension Migrations {
  /// `channel_heartbeats`: through when a running monitor has heard each of its channels (milliseconds since 1970,
  /// UTC), and which node heard it ("" in SQLite, which has one writer). A monitor replaces its rows every few
  /// seconds and deletes them when it stops; rows left at a start are a killed run's, and that start records the
  /// time from each row's `heard_through_ms` as a gap (`recoverDowntime`). Like `channel_owners`, a live
  /// deployment's state, not evidence: `db copy` does not move it.
  static let heartbeats = Migration(
    id: "010_heartbeats",
    sql: """
      CREATE TABLE channel_heartbeats(
        channel_id INTEGER NOT NULL PRIMARY KEY REFERENCES channels(id),
        node TEXT NOT NULL,
        heard_through_ms INTEGER NOT NULL
      );
      """)

  /// `channel_heartbeats.written_at_ms`: when each row was last written (milliseconds since 1970, UTC). In
  /// PostgreSQL it is the server's clock, which every node reads alike, so a node can tell that another has stopped
  /// writing its heartbeats (``PlayLogStorage/peerNodes()``) whatever the nodes' own clocks say. Rows written before
  /// this migration have none, and their `heard_through_ms` stands in for it.
  static let heartbeatWrites = Migration(
    id: "011_heartbeat_writes",
    sql: """
      ALTER TABLE channel_heartbeats ADD COLUMN written_at_ms INTEGER;
      """)

  /// `node_heartbeats`: each running node's own heartbeat, beside its channels': the channels it listened to at its
  /// last write (a JSON array of names) and the write's time (the server's clock, milliseconds since 1970, UTC).
  /// A channel's row in `channel_heartbeats` moves to the node that takes the channel over, so without this row a
  /// node that died and whose channels were all taken over, or a standby node whose channels all wait, would leave
  /// no trace of itself, and its end would raise no `node_down`. A node writes its row with every heartbeat and
  /// deletes it when it stops; SQLite, whose play log has one writer, leaves the table empty. Like
  /// `channel_heartbeats`, a live deployment's state, not evidence: `db copy` does not move it.
  static let nodeHeartbeats = Migration(
    id: "013_node_heartbeats",
    sql: """
      CREATE TABLE node_heartbeats(
        node TEXT NOT NULL PRIMARY KEY,
        channels_json TEXT NOT NULL,
        written_at_ms INTEGER NOT NULL
      );
      """)
}
