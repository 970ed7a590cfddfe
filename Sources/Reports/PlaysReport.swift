import Foundation

/// The `plays` report: the detailed log, one row per play in air order, with exactly the columns `scan --csv`
/// writes, in the same order, then `status` (open, closed or recovered). Times are in each station's local time
/// with its offset (UTC with `Z` under `--tz UTC`).
///
/// Thread: any one thread (the reader's).
package struct PlaysReport: Sendable {
  package let scope: ReportScope

  package init(scope: ReportScope) {
    self.scope = scope
  }

  /// The columns.
  package static let format = PlayCSVFormat(extraColumns: [.status])

  /// Writes the header and one row per play.
  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    let format = Self.format
    try sink.writeRow(format.header.map(CSVField.text))
    let channels = try scope.channels(in: reader)
    try ReportScope.forEachPlay(of: channels, in: reader, progress: progress) { span, index in
      let channel = channels[index]
      let item = try reader.item(span.itemID)
      let record = PlayRecord(
        id: span.id, channel: channel.name, itemKey: item.key, title: item.title, artist: item.artist,
        album: item.album, isrc: item.isrc, label: item.label, kind: item.kind,
        start: Date(millisecondsSince1970: span.startMilliseconds),
        end: Date(millisecondsSince1970: span.endMilliseconds),
        refOffsetSeconds: Double(span.refOffsetMilliseconds) / 1000, speed: span.speed, confidence: span.confidence,
        detectedAt: Date(millisecondsSince1970: span.detectedAtMilliseconds), status: span.status)
      try sink.writeRow(format.row(record, formatTime: channel.calendar.format))
    }
  }
}
