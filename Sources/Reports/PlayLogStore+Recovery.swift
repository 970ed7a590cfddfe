import Foundation

/// What the live monitor needs beyond recording: withdrawing a play the matcher retracted, and closing the plays a
/// stopped monitor left open.
extension PlayLogStore {
  /// Deletes a play that the matcher withdrew (a repeated section of a track that a stronger play explains).
  /// - Throws: ``PlayLogError/noSuchPlay(id:path:)`` for an unknown id; ``SQLiteError`` when the file cannot be
  ///   written.
  public func retract(playID: Int64) throws {
    try database.transaction {
      let deleted = try database.run("DELETE FROM plays WHERE id = ?", [.integer(playID)])
      guard deleted == 1 else { throw PlayLogError.noSuchPlay(id: playID, path: path) }
    }
  }

  /// Marks every play still `open` as `recovered`: a monitor that stopped without closing them (a crash, a power
  /// cut, SIGKILL) left them open, and their end stays the last time the match was confirmed. Call it once at start,
  /// before recording anything.
  /// - Returns: the recovered plays' ids, oldest first.
  /// - Throws: ``SQLiteError`` when the file cannot be written.
  @discardableResult
  public func recoverOpenPlays() throws -> [Int64] {
    try database.transaction {
      var ids: [Int64] = []
      try database.forEachRow("SELECT id FROM plays WHERE status = 'open' ORDER BY start_ms, id", []) { row in
        ids.append(try row.int64(0))
      }
      try database.run(
        "UPDATE plays SET status = 'recovered', updated_at_ms = ? WHERE status = 'open'", [.date(Date())])
      return ids
    }
  }
}

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
