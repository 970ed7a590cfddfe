import Foundation

/// Events: what happened to the monitor or a channel (gaps, reconnects, overruns, restarts), so that a report can
/// say why plays may be missing.
extension PlayLogStore {
  /// Records an event.
  /// - Parameters:
  ///   - channel: the channel it happened to, or nil for the whole monitor (a restart).
  ///   - end: when it ended, or nil for an instant or one still going on.
  ///   - detail: free text for the operator.
  /// - Returns: the event's id.
  /// - Throws: ``PlayLogError/invalidEvent(reason:path:)`` for an end before the start; ``SQLiteError`` when the
  ///   file cannot be written.
  @discardableResult
  public func recordEvent(
    channel: String?, kind: EventKind, start: Date, end: Date? = nil, detail: String = ""
  ) throws -> Int64 {
    try Self.checkEventEnd(kind: kind, start: start, end: end, path: path)
    return try database.transaction {
      let channelRowID = try channel.map { try self.channelID(named: $0) }
      try database.run(
        "INSERT INTO events(channel_id, kind, start_ms, end_ms, detail) VALUES(?, ?, ?, ?, ?)",
        [.integer(channelRowID), .text(kind.rawValue), .date(start), .date(end), .text(detail)])
      return database.lastInsertRowID
    }
  }

  /// Gives the channel's `kind` event that started at `start` and was recorded without an end (a gap, recorded
  /// when the source went away) its end: when the audio came back. Applying it again, or to an event that has an end,
  /// changes nothing.
  /// - Throws: ``PlayLogError/invalidEvent(reason:path:)`` for an end before the start; ``SQLiteError`` when the
  ///   file cannot be written.
  public func endEvent(channel: String, kind: EventKind, start: Date, end: Date) throws {
    try Self.checkEventEnd(kind: kind, start: start, end: end, path: path)
    _ = try database.transaction {
      try database.run(
        """
        UPDATE events SET end_ms = ?
        WHERE kind = ? AND start_ms = ? AND end_ms IS NULL AND channel_id = (SELECT id FROM channels WHERE name = ?)
        """,
        [.date(end), .text(kind.rawValue), .date(start), .text(channel)])
    }
  }

  /// Refuses an event's end before its start, to the millisecond as the play log keeps them.
  static func checkEventEnd(kind: EventKind, start: Date, end: Date?, path: String) throws {
    if let end, end.millisecondsSince1970 < start.millisecondsSince1970 {
      throw PlayLogError.invalidEvent(
        reason: "the \(kind.rawValue) event ends at \(ISO8601Millis.format(end)), before its start "
          + ISO8601Millis.format(start),
        path: path)
    }
  }
}
