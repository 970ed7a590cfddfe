import Foundation

/// The stream listener samples in the play log (`run` samples Icecast's stats endpoint).
extension PlayLogStore {
  /// Records `listeners` on `channel` at `sampledAt`; a sample already there (same channel and time) is left as it
  /// is, so a replay from the spool adds nothing.
  /// - Throws: ``PlayLogError/invalidEvent(reason:path:)`` for a negative count; ``SQLiteError`` when the file
  ///   cannot be written.
  public func recordListeners(channel: String, sampledAt: Date, listeners: Int) throws {
    guard listeners >= 0 else {
      throw PlayLogError.invalidEvent(reason: "\(listeners) listeners on \(channel) is not a count", path: path)
    }
    try database.transaction {
      let channelRowID = try self.channelID(named: channel)
      _ = try database.run(
        """
        INSERT INTO listener_samples(channel_id, sampled_at_ms, listeners) VALUES(?, ?, ?)
        ON CONFLICT DO NOTHING
        """, [.integer(channelRowID), .date(sampledAt), .integer(Int64(listeners))])
    }
  }
}
