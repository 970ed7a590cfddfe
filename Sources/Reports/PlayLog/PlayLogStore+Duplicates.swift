import Foundation

/// Finding a play that may already be recorded, so that a write retried after an error never records it twice.
extension PlayLogStore {
  /// The id of a recorded play of the same channel, item, start and detection time as `play`; nil when there is
  /// none. A write that failed with an error after SQLite had already committed it (a sync error) is found here.
  /// - Parameter startMayHaveMoved: find the play by channel, item and detection time alone (the one with the same
  ///   start first): a spool replayed after its writes reached the play log finds a play whose start a later update
  ///   refined. The detection time never changes after the play is recorded.
  public func recordedPlayID(matching play: PlayRecord, startMayHaveMoved: Bool = false) throws -> Int64? {
    try database.firstRow(
      """
      SELECT p.id FROM plays AS p
        JOIN channels AS c ON c.id = p.channel_id
        JOIN catalog_items AS i ON i.id = p.item_id
      WHERE c.name = ? AND (p.start_ms = ? OR ?) AND i.item_key = ? AND p.detected_at_ms = ?
      ORDER BY p.start_ms = ? DESC, p.id
      """,
      [
        .text(play.channel), .date(play.start), .integer(startMayHaveMoved ? 1 : 0), .text(play.itemKey),
        .date(play.detectedAt), .date(play.start),
      ]
    ).map { try $0.int64(0) }
  }

  /// The id of a recorded event of the same channel, kind, start, end and detail; nil when there is none. A spooled
  /// event replayed on the next start may have been written before the spool was emptied. Without `end` (a gap), an
  /// event that has been given its end since (``endEvent(channel:kind:start:end:)``) is the same event.
  public func recordedEventID(
    channel: String?, kind: EventKind, start: Date, end: Date?, detail: String
  ) throws -> Int64? {
    try database.firstRow(
      """
      SELECT e.id FROM events AS e LEFT JOIN channels AS c ON c.id = e.channel_id
      WHERE c.name IS ? AND e.kind = ? AND e.start_ms = ? AND (e.end_ms IS ? OR ? IS NULL) AND e.detail = ?
      """,
      [.text(channel), .text(kind.rawValue), .date(start), .date(end), .date(end), .text(detail)]
    ).map { try $0.int64(0) }
  }
}
