import Foundation

/// The columns of a CSV of plays, one row per play:
///
/// `channel,start,end,duration_s,title,artist,album,isrc,label,kind,ref_offset_s,speed,confidence,detected_at`
///
/// Times are ISO 8601 with milliseconds, UTC (`2026-01-01T00:03:12.345Z`) unless the caller passes another
/// formatter (the `plays` report prints the station's local time with its offset); `duration_s`, `ref_offset_s` and
/// `confidence` have 3 decimals, `speed` 4 (`1.0400`). A report may add trailing columns (``Column/status``).
///
/// A value type: safe to pass between threads.
package struct PlayCSVFormat: Sendable {
  /// One column: its header name and how a play fills its cell.
  package struct Column: Sendable {
    package let name: String
    /// The cell of a play; times are written with the formatter it is given.
    package let value: @Sendable (PlayRecord, _ formatTime: (Date) -> String) -> CSVField

    package init(name: String, value: @escaping @Sendable (PlayRecord, _ formatTime: (Date) -> String) -> CSVField) {
      self.name = name
      self.value = value
    }

    /// The play's status: open, closed, recovered or late.
    package static let status = Column(name: "status") { play, _ in .text(play.status.rawValue) }
  }

  /// The standard columns, in order.
  package static let standardColumns: [Column] = [
    Column(name: "channel") { play, _ in .text(play.channel) },
    Column(name: "start") { play, formatTime in .number(formatTime(play.start)) },
    Column(name: "end") { play, formatTime in .number(formatTime(play.end)) },
    Column(name: "duration_s") { play, _ in .number(FixedDecimal.format(play.durationSeconds, places: 3)) },
    Column(name: "title") { play, _ in .text(play.metadata.title) },
    Column(name: "artist") { play, _ in .text(play.metadata.artist) },
    Column(name: "album") { play, _ in .text(play.metadata.album) },
    Column(name: "isrc") { play, _ in .text(play.metadata.isrc) },
    Column(name: "label") { play, _ in .text(play.metadata.label) },
    Column(name: "kind") { play, _ in .text(play.metadata.kind.rawValue) },
    Column(name: "ref_offset_s") { play, _ in .number(FixedDecimal.format(play.refOffsetSeconds, places: 3)) },
    Column(name: "speed") { play, _ in .number(FixedDecimal.format(play.speed, places: 4)) },
    Column(name: "confidence") { play, _ in .number(FixedDecimal.format(play.confidence, places: 3)) },
    Column(name: "detected_at") { play, formatTime in .number(formatTime(play.detectedAt)) },
  ]

  /// The columns of this format: the standard ones, then the extra ones.
  package let columns: [Column]

  package init(extraColumns: [Column] = []) {
    columns = Self.standardColumns + extraColumns
  }

  /// The header names, in order.
  package var header: [String] { columns.map(\.name) }

  /// The cells of one play, in column order, its times written by `formatTime` (UTC with `Z` by default).
  package func row(_ play: PlayRecord, formatTime: (Date) -> String = ISO8601Millis.format) -> [CSVField] {
    columns.map { $0.value(play, formatTime) }
  }
}
