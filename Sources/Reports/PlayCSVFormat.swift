/// The columns of a CSV of plays, one row per play:
///
/// `channel,start,end,duration_s,title,artist,album,isrc,label,kind,ref_offset_s,speed,confidence,detected_at`
///
/// Times are ISO 8601 UTC with milliseconds (`2026-01-01T00:03:12.345Z`); `duration_s`, `ref_offset_s` and
/// `confidence` have 3 decimals, `speed` 4 (`1.0400`). A report may add trailing columns (``Column/status``).
///
/// A value type: safe to pass between threads.
package struct PlayCSVFormat: Sendable {
  /// One column: its header name and how a play fills its cell.
  package struct Column: Sendable {
    package let name: String
    package let value: @Sendable (PlayRecord) -> CSVField

    package init(name: String, value: @escaping @Sendable (PlayRecord) -> CSVField) {
      self.name = name
      self.value = value
    }

    /// The play's status: open, closed or recovered.
    package static let status = Column(name: "status") { .text($0.status.rawValue) }
  }

  /// The standard columns, in order.
  package static let standardColumns: [Column] = [
    Column(name: "channel") { .text($0.channel) },
    Column(name: "start") { .number(ISO8601Millis.format($0.start)) },
    Column(name: "end") { .number(ISO8601Millis.format($0.end)) },
    Column(name: "duration_s") { .number(FixedDecimal.format($0.durationSeconds, places: 3)) },
    Column(name: "title") { .text($0.title) },
    Column(name: "artist") { .text($0.artist) },
    Column(name: "album") { .text($0.album) },
    Column(name: "isrc") { .text($0.isrc) },
    Column(name: "label") { .text($0.label) },
    Column(name: "kind") { .text($0.kind) },
    Column(name: "ref_offset_s") { .number(FixedDecimal.format($0.refOffsetSeconds, places: 3)) },
    Column(name: "speed") { .number(FixedDecimal.format($0.speed, places: 4)) },
    Column(name: "confidence") { .number(FixedDecimal.format($0.confidence, places: 3)) },
    Column(name: "detected_at") { .number(ISO8601Millis.format($0.detectedAt)) },
  ]

  /// The columns of this format: the standard ones, then the extra ones.
  package let columns: [Column]

  package init(extraColumns: [Column] = []) {
    columns = Self.standardColumns + extraColumns
  }

  /// The header names, in order.
  package var header: [String] { columns.map(\.name) }

  /// The cells of one play, in column order.
  package func row(_ play: PlayRecord) -> [CSVField] {
    columns.map { $0.value(play) }
  }
}
