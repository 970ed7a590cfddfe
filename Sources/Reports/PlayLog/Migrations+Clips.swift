/// Audio clips: the span each unknown segment's clip holds. Kept apart from the plays' schema so that it merges as
/// one entry of the list.
extension Migrations {
  /// `unknown_segments.clip_start_ms` and `clip_end_ms`: the span of air its clip holds (the segment's, or a later
  /// start when the segment began before the oldest audio its channel keeps); null without a clip, and for a clip
  /// written before this migration. Times are milliseconds since 1970, UTC.
  static let clips = Migration(
    id: "009_clips",
    sql: """
      ALTER TABLE unknown_segments ADD COLUMN clip_start_ms INTEGER;
      ALTER TABLE unknown_segments ADD COLUMN clip_end_ms INTEGER;
      """)
}
