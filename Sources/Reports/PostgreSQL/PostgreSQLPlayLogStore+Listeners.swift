import Foundation

/// The stream listener samples in a PostgreSQL play log: as `PlayLogStore+Listeners.swift`.
extension PostgreSQLPlayLogStore {
  public func recordListeners(channel: String, sampledAt: Date, listeners: Int) throws {
    guard listeners >= 0 else {
      throw PlayLogError.invalidEvent(reason: "\(listeners) listeners on \(channel) is not a count", path: path)
    }
    try connection.transaction {
      let channelRowID = try self.channelID(named: channel)
      _ = try connection.query(
        """
        INSERT INTO listener_samples(channel_id, sampled_at_ms, listeners) VALUES($1, $2, $3)
        ON CONFLICT DO NOTHING
        """, [.integer(channelRowID), .date(sampledAt), .integer(Int64(listeners))])
    }
  }
}
