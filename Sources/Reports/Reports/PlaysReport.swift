import Foundation

/// The `plays` report: the detailed log, one row per play in air order, with exactly the columns `scan --csv`
/// writes, in the same order, then `status` (open, closed, recovered or late). Times are in each station's local time
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
    try sink.writeRow(Self.format.header.map(CSVField.text))
    let channels = try scope.channels(in: reader)
    // The cells of the standard columns, built byte by byte (`PlayCSVFormat` with `.status`, the same text: the
    // tests compare them); an item's text cells and a channel's name are encoded once.
    var encoder = ReportRowEncoder(style: sink.rowStyle)
    var itemCells: [Int64: [UInt8]] = [:]
    let channelCells = channels.map { encoder.encoded($0.name) }
    let statusCells = Dictionary(uniqueKeysWithValues: PlayStatus.allCases.map { ($0, encoder.encoded($0.rawValue)) })
    try ReportScope.forEachPlay(of: channels, in: reader, progress: progress) { play, index in
      let calendar = channels[index].calendar
      encoder.reset()
      encoder.append(encoded: channelCells[index])
      encoder.append(time: play.startMilliseconds, on: calendar)
      encoder.append(time: play.endMilliseconds, on: calendar)
      encoder.append(milliseconds: play.durationMilliseconds)
      if let cells = itemCells[play.itemID] {
        encoder.append(encoded: cells)
      } else {
        let m = try reader.item(play.itemID).metadata
        var cells = ReportRowEncoder(style: encoder.style)
        for text in [m.title, m.artist, m.album, m.isrc, m.label, m.kind.rawValue] {
          cells.append(text: text)
        }
        itemCells[play.itemID] = cells.bytes
        encoder.append(encoded: cells.bytes)
      }
      encoder.append(milliseconds: play.refOffsetMilliseconds)
      encoder.append(play.speed, places: 4)
      encoder.append(play.confidence, places: 3)
      encoder.append(time: play.detectedAtMilliseconds, on: calendar)
      encoder.append(encoded: statusCells[play.status] ?? [])
      try sink.writeEncodedRow(encoder.bytes)
    }
  }
}
