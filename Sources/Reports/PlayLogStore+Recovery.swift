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
