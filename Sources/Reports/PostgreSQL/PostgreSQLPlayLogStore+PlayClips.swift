import Foundation

/// The clips of catalog plays, as ``PlayLogStore``'s (see there).
extension PostgreSQLPlayLogStore {
  public func record(_ clip: PlayClipRecord) throws {
    try validate(clip)
    try connection.transaction {
      let channelRowID = try self.channelID(named: clip.channel)
      try connection.query(
        """
        INSERT INTO play_clips(
          channel_id, item_key, play_start_ms, play_end_ms, clip_start_ms, clip_end_ms, clip_path)
        VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT(channel_id, play_start_ms, item_key) DO NOTHING
        """,
        [
          .integer(channelRowID), .text(clip.itemKey), .date(clip.playStart), .date(clip.playEnd),
          .date(clip.clipStart), .date(clip.clipEnd), .text(clip.clipPath),
        ])
    }
  }
}
