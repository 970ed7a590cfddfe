/// Reading the labelled timeline and the unknown segments (`report segments`, `report unknown`).
extension PlayLogReader {
  /// One row of `air_stretches`, with its unknown segment's cluster and clip.
  package struct StretchRow: Sendable, Equatable {
    package var startMilliseconds: Int64
    package var endMilliseconds: Int64
    package var label: String
    package var itemKey: String?
    package var cluster: Int64?
    package var clipPath: String?
    /// The catalog item an unknown segment's cluster was promoted to (`catalog add --from-unknown`), if it was.
    package var promotedItemKey: String?
  }

  /// True when the file has the timeline's tables (a play log opened by this version or later).
  package func hasAirStretches() throws -> Bool {
    try database.hasTable("air_stretches")
  }

  /// The first stretch's start and the last one's end on `channelID`; nil when it has none.
  package func stretchRange(channelID: Int64) throws -> (first: Int64, last: Int64)? {
    guard
      let row = try database.firstRow(
        "SELECT min(start_ms), max(end_ms) FROM air_stretches WHERE channel_id = ?", [.integer(channelID)]),
      let first = try row.optionalInt64(0), let last = try row.optionalInt64(1)
    else { return nil }
    return (first, last)
  }

  /// True when unknown segments can be promoted to plays (`Migrations.latePlays`): a play log that only reports
  /// have opened since an older version wrote it has not got there.
  package func hasLatePlays() throws -> Bool {
    try database.firstRow("SELECT 1 FROM pragma_table_info('unknown_segments') WHERE name = 'play_id'") != nil
  }

  /// The stretches of `channelID` that start in `[from, to)`, in time order, each unknown segment with the item
  /// its cluster was promoted to.
  package func stretches(channelID: Int64, fromMilliseconds: Int64, toMilliseconds: Int64) throws -> [StretchRow] {
    let promoted = try hasLatePlays()
    var rows: [StretchRow] = []
    try database.forEachRow(
      """
      SELECT a.start_ms, a.end_ms, a.label, a.item_key, u.cluster, u.clip_path, \(promoted ? "i.item_key" : "NULL")
      FROM air_stretches a
      LEFT JOIN unknown_segments u ON u.channel_id = a.channel_id AND u.start_ms = a.start_ms
      \(promoted ? "LEFT JOIN plays p ON p.id = u.play_id LEFT JOIN catalog_items i ON i.id = p.item_id" : "")
      WHERE a.channel_id = ? AND a.start_ms >= ? AND a.start_ms < ? ORDER BY a.start_ms
      """, [.integer(channelID), .integer(fromMilliseconds), .integer(toMilliseconds)]
    ) { row in
      rows.append(
        StretchRow(
          startMilliseconds: try row.int64(0), endMilliseconds: try row.int64(1), label: try row.string(2),
          itemKey: try optionalText(row, 3), cluster: try row.optionalInt64(4),
          clipPath: try optionalText(row, 5), promotedItemKey: try optionalText(row, 6)))
    }
    return rows
  }

  private func optionalText(_ row: SQLiteRow, _ column: Int) throws -> String? {
    if case .null = row[column] { return nil }
    return try row.string(column)
  }
}
