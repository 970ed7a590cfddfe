/// Reading the clips of catalog plays (`report proof-of-play`'s `clip`).
extension PlayLogReader {
  /// One row of `play_clips`.
  package struct PlayClipRow: Sendable, Equatable {
    package var itemKey: String
    package var playStartMilliseconds: Int64
    package var playEndMilliseconds: Int64
    package var clipStartMilliseconds: Int64
    package var clipEndMilliseconds: Int64
    package var path: String
  }

  /// True when the file has the play clips' table (a play log opened by this version or later).
  package func hasPlayClips() throws -> Bool {
    try database.hasTable("play_clips")
  }

  /// The clips of the plays of `channelID` that overlap `[from, to)`, by the play's start; empty when the file has
  /// no such table.
  package func playClips(channelID: Int64, fromMilliseconds: Int64, toMilliseconds: Int64) throws -> [PlayClipRow] {
    guard try hasPlayClips() else { return [] }
    let (earliest, overflow) = fromMilliseconds.subtractingReportingOverflow(Self.longestPlayMilliseconds)
    var rows: [PlayClipRow] = []
    try database.forEachRow(
      """
      SELECT item_key, play_start_ms, play_end_ms, clip_start_ms, clip_end_ms, clip_path FROM play_clips
      WHERE channel_id = ? AND play_start_ms >= ? AND play_start_ms < ? AND play_end_ms > ?
      ORDER BY play_start_ms
      """,
      [
        .integer(channelID), .integer(overflow ? .min : earliest), .integer(toMilliseconds),
        .integer(fromMilliseconds),
      ]
    ) { row in
      rows.append(
        PlayClipRow(
          itemKey: try row.string(0), playStartMilliseconds: try row.int64(1), playEndMilliseconds: try row.int64(2),
          clipStartMilliseconds: try row.int64(3), clipEndMilliseconds: try row.int64(4), path: try row.string(5)))
    }
    return rows
  }

  /// How long before a report's span a play may start and still reach into it: a day, longer than any play.
  static let longestPlayMilliseconds: Int64 = 86_400_000
}
