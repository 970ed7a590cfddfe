import Foundation

/// The clips of catalog plays (`Migrations.clips`).
extension PlayLogStore {
  /// Records a play's clip (its channel too, if new), unless that play's clip is there (same channel, start and
  /// item: a replayed write).
  /// - Throws: ``PlayLogError/invalidEvent(reason:path:)`` for a span that ends before it starts; ``SQLiteError``
  ///   when the file cannot be written.
  public func record(_ clip: PlayClipRecord) throws {
    try validate(clip)
    try database.transaction {
      let channelRowID = try self.channelID(named: clip.channel)
      try database.run(
        """
        INSERT INTO play_clips(
          channel_id, item_key, play_start_ms, play_end_ms, clip_start_ms, clip_end_ms, clip_path)
        VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(channel_id, play_start_ms, item_key) DO NOTHING
        """,
        [
          .integer(channelRowID), .text(clip.itemKey), .date(clip.playStart), .date(clip.playEnd),
          .date(clip.clipStart), .date(clip.clipEnd), .text(clip.clipPath),
        ])
    }
  }
}

extension PlayLogStorage {
  /// Refuses a play clip whose play or clip ends before it starts.
  func validate(_ clip: PlayClipRecord) throws {
    guard clip.playEnd >= clip.playStart, clip.clipEnd >= clip.clipStart else {
      throw PlayLogError.invalidEvent(
        reason: "the clip \(clip.clipPath) of \(clip.channel)'s play at \(ISO8601Millis.format(clip.playStart)) "
          + "ends before it starts", path: path)
    }
  }
}
