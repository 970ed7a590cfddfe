import Foundation

/// Finding a play that may already be recorded, so that a write retried after an error never records it twice.
extension PlayLogStore {
  /// The id of a recorded play of the same channel, item, start and detection time as `play`; nil when there is
  /// none. A write that failed with an error after SQLite had already committed it (a sync error) is found here.
  public func recordedPlayID(matching play: PlayRecord) throws -> Int64? {
    try database.firstRow(
      """
      SELECT p.id FROM plays AS p
        JOIN channels AS c ON c.id = p.channel_id
        JOIN catalog_items AS i ON i.id = p.item_id
      WHERE c.name = ? AND p.start_ms = ? AND i.item_key = ? AND p.detected_at_ms = ?
      """,
      [.text(play.channel), .date(play.start), .text(play.itemKey), .date(play.detectedAt)]
    ).map { try $0.int64(0) }
  }
}
