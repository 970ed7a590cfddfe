/// The `airplay` report: per item (and per channel with `byChannel`), how often and how long it aired, and its first
/// and last air time; with `grouping`, per local day, week (from Monday) or month, for charts.
///
/// Columns: `period_start,period_end` (with a grouping), `channel` (by channel), then
/// `title,artist,album,isrc,label,kind,item_key,plays,total_s,first_aired,last_aired`. `total_s` is the sum of the
/// plays' durations, in seconds with 3 decimals; `first_aired` and `last_aired` are the start times of the first and
/// last play in the period; a period cut by `--from` or `--to` shows the part it covers. Rows: by channel, period,
/// then most played first (ties: longest total, artist, title, key).
///
/// Thread: any one thread (the reader's).
package struct AirplayReport: Sendable {
  package let scope: ReportScope
  package let byChannel: Bool
  package let grouping: ReportGrouping?

  package init(scope: ReportScope, byChannel: Bool = false, grouping: ReportGrouping? = nil) {
    self.scope = scope
    self.byChannel = byChannel
    self.grouping = grouping
  }

  /// One table the report writes rows for: a channel (by channel) or all of them, with its calendar and periods.
  private struct Table {
    var name: String
    /// The channel's row id; nil for all channels.
    var channelID: Int64?
    var calendar: LocalCalendar
    /// The span asked for, `[from, to)`; the periods may reach beyond it and are clipped to it.
    var fromMilliseconds: Int64
    var toMilliseconds: Int64
    var periods: [ReportPeriod]
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    var header: [String] = []
    if grouping != nil { header += ["period_start", "period_end"] }
    if byChannel { header.append("channel") }
    header += [
      "title", "artist", "album", "isrc", "label", "kind", "item_key", "plays", "total_s", "first_aired", "last_aired",
    ]
    try sink.writeRow(header.map(CSVField.text))

    let channels = try scope.channels(in: reader, grouping: grouping)
    var tables: [Table] = []
    func periods(_ calendar: LocalCalendar, _ from: Int64, _ to: Int64) -> [ReportPeriod] {
      guard from < to else { return [] }
      guard let grouping else { return [ReportPeriod(startMilliseconds: from, endMilliseconds: to)] }
      return calendar.periods(grouping, from: from, to: to)
    }
    if byChannel || channels.count == 1 {
      for channel in channels {
        tables.append(
          Table(
            name: channel.name, channelID: channel.id, calendar: channel.calendar,
            fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds,
            periods: periods(channel.calendar, channel.fromMilliseconds, channel.toMilliseconds)))
      }
    } else if let calendar = try ReportScope.sharedCalendar(of: channels) {
      let from = channels.map(\.fromMilliseconds).min() ?? 0
      let to = channels.map(\.toMilliseconds).max() ?? 0
      tables = [
        Table(
          name: "", channelID: nil, calendar: calendar, fromMilliseconds: from, toMilliseconds: to,
          periods: periods(calendar, from, to))
      ]
    }

    // SQLite adds up each period (a week at a time), clipped to the span asked for; its rows are written before
    // the next period is read.
    let total = max(tables.map(\.periods.count).reduce(0, +), 1)
    var done = 0
    var encoder = ReportRowEncoder(style: sink.rowStyle)
    var itemCells: [Int64: [UInt8]] = [:]
    for table in tables.sorted(by: { $0.name < $1.name }) {
      let tableCell = encoder.encoded(table.name)
      for period in table.periods {
        var tallies: [Int64: ItemTally] = [:]
        try reader.addTallies(
          channelID: table.channelID, fromMilliseconds: max(period.startMilliseconds, table.fromMilliseconds),
          toMilliseconds: min(period.endMilliseconds, table.toMilliseconds), into: &tallies)
        let rows = try tallies.map { itemID, tally in (tally, try reader.item(itemID)) }
          .sorted { a, b in
            if a.0.plays != b.0.plays { return a.0.plays > b.0.plays }
            if a.0.totalMilliseconds != b.0.totalMilliseconds { return a.0.totalMilliseconds > b.0.totalMilliseconds }
            let (x, y) = (a.1.metadata, b.1.metadata)
            if x.artist != y.artist { return x.artist < y.artist }
            if x.title != y.title { return x.title < y.title }
            return a.1.key < b.1.key
          }
        for (tally, item) in rows {
          encoder.reset()
          if grouping != nil {
            // A period cut by --from or --to shows the part it covers.
            encoder.append(time: max(period.startMilliseconds, table.fromMilliseconds), on: table.calendar)
            encoder.append(time: min(period.endMilliseconds, table.toMilliseconds), on: table.calendar)
          }
          if byChannel { encoder.append(encoded: tableCell) }
          if let cells = itemCells[item.id] {
            encoder.append(encoded: cells)
          } else {
            var cells = ReportRowEncoder(style: encoder.style)
            let m = item.metadata
            for text in [m.title, m.artist, m.album, m.isrc, m.label, m.kind.rawValue, item.key] {
              cells.append(text: text)
            }
            itemCells[item.id] = cells.bytes
            encoder.append(encoded: cells.bytes)
          }
          encoder.append(number: String(tally.plays))
          encoder.append(milliseconds: tally.totalMilliseconds)
          encoder.append(time: tally.firstStartMilliseconds, on: table.calendar)
          encoder.append(time: tally.lastStartMilliseconds, on: table.calendar)
          try sink.writeEncodedRow(encoder.bytes)
        }
        done += 1
        progress?(Double(done) / Double(total))
      }
    }
  }
}
