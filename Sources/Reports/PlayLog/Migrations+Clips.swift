/// Audio clips as proof of airing: the span each unknown segment's clip holds, and the clips of catalog plays. Kept
/// apart from the plays' schema so that it merges as one entry of the list.
extension Migrations {
  /// `unknown_segments.clip_start_ms` and `clip_end_ms`: the span of air its clip holds (the segment's, or a later
  /// start when the segment began before the oldest audio its channel keeps); null without a clip, and for a clip
  /// written before this migration. `play_clips`: the clip of a catalog play (`unknown.catalogPlayClips`): the
  /// channel, the item's key and the play's span as the monitor had it when the play ended, and the span of air the
  /// clip holds (later than the play's start when the play was longer than the audio its channel keeps). A play's
  /// row may move (a restart continues it), so a clip is found by its channel, item and span, not by the play's id;
  /// it is keyed by them, so that a replayed write adds nothing. Times are milliseconds since 1970, UTC.
  static let clips = Migration(
    id: "009_clips",
    sql: """
      ALTER TABLE unknown_segments ADD COLUMN clip_start_ms INTEGER;
      ALTER TABLE unknown_segments ADD COLUMN clip_end_ms INTEGER;
      CREATE TABLE play_clips(
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        item_key TEXT NOT NULL,
        play_start_ms INTEGER NOT NULL,
        play_end_ms INTEGER NOT NULL,
        clip_start_ms INTEGER NOT NULL,
        clip_end_ms INTEGER NOT NULL,
        clip_path TEXT NOT NULL,
        UNIQUE(channel_id, play_start_ms, item_key)
      );
      """)
}
