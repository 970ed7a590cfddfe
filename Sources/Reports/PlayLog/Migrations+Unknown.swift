/// The air's labelled timeline and the unknown music in it (`report segments`, `report unknown`): kept apart from
/// the plays' schema so that it merges as one entry of the list.
extension Migrations {
  /// `air_stretches`: every stretch of a channel's air with its label (`catalog`, `unknown-music`, `speech`,
  /// `silence`, `mixed`) and, for `catalog`, the item's key. `unknown_segments`: each stretch of other music of 20 s
  /// or more, with how sure the classifier is that it is music, its cluster (the same recording aired again has the
  /// same cluster) and where in the cluster's first airing it starts (`cluster_offset_ms`), its fingerprint (the
  /// `.bmsig` signature of its reference peaks, base64) so that clusters survive restarts, and its audio clip.
  /// Times are milliseconds since 1970, UTC; a stretch is keyed by its channel and start, so that a replayed write
  /// adds nothing.
  static let unknownMusic = Migration(
    id: "005_unknown_music",
    sql: """
      CREATE TABLE air_stretches(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        label TEXT NOT NULL,
        item_key TEXT,
        music_confidence REAL NOT NULL,
        UNIQUE(channel_id, start_ms)
      );
      CREATE TABLE unknown_segments(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        music_confidence REAL NOT NULL,
        cluster INTEGER NOT NULL,
        cluster_offset_ms INTEGER NOT NULL,
        fingerprint TEXT NOT NULL,
        clip_path TEXT,
        UNIQUE(channel_id, start_ms)
      );
      CREATE INDEX unknown_segments_by_cluster ON unknown_segments(cluster, start_ms);
      """)
}
