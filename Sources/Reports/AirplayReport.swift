/// The `airplay` report: per item (and per channel with `byChannel`), how often and how long it aired, and its first
/// and last air time; with `grouping`, per local day, week (from Monday) or month, for charts.
///
/// Columns: `period_start,period_end` (with a grouping), `channel` (by channel), then
/// `title,artist,album,isrc,label,kind,item_key,plays,total_s,first_aired,last_aired`. `total_s` is the sum of the
/// plays' durations, in seconds with 3 decimals; `first_aired` and `last_aired` are the start times of the first and
/// last play in the period. Rows: by period, channel, then most played first (ties: longest total, artist, title,
/// key).
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
    var calendar: LocalCalendar
    var periods: [ReportPeriod]
  }

  private struct Key: Hashable {
    var table: Int
    var period: Int
    var item: Int64
  }

  private struct Tally {
    var plays = 0
    var totalMilliseconds: Int64 = 0
    var firstStart = Int64.max
    var lastStart = Int64.min
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
    var tableOfChannel: [Int] = []
    func periods(_ calendar: LocalCalendar, _ from: Int64, _ to: Int64) -> [ReportPeriod] {
      guard let grouping else { return [ReportPeriod(startMilliseconds: from, endMilliseconds: to)] }
      return calendar.periods(grouping, from: from, to: to)
    }
    if byChannel {
      for channel in channels {
        tableOfChannel.append(tables.count)
        tables.append(
          Table(
            name: channel.name, calendar: channel.calendar,
            periods: periods(channel.calendar, channel.fromMilliseconds, channel.toMilliseconds)))
      }
    } else if let calendar = try ReportScope.sharedCalendar(of: channels) {
      let from = channels.map(\.fromMilliseconds).min() ?? 0
      let to = channels.map(\.toMilliseconds).max() ?? 0
      tables = [Table(name: "", calendar: calendar, periods: periods(calendar, from, to))]
      tableOfChannel = Array(repeating: 0, count: channels.count)
    }

    var tallies: [Key: Tally] = [:]
    var cursors = Array(repeating: 0, count: tables.count)
    try ReportScope.forEachPlay(of: channels, in: reader, progress: progress) { play, channelIndex in
      let table = tableOfChannel[channelIndex]
      let periods = tables[table].periods
      // Plays come in start order, so each table's period only moves forward.
      var period = cursors[table]
      while period < periods.count && play.startMilliseconds >= periods[period].endMilliseconds { period += 1 }
      cursors[table] = period
      guard period < periods.count, periods[period].contains(play.startMilliseconds) else { return }
      let key = Key(table: table, period: period, item: play.itemID)
      var tally = tallies[key] ?? Tally()
      tally.plays += 1
      tally.totalMilliseconds += play.durationMilliseconds
      tally.firstStart = min(tally.firstStart, play.startMilliseconds)
      tally.lastStart = max(tally.lastStart, play.startMilliseconds)
      tallies[key] = tally
    }

    let rows = try tallies.map { key, tally in (key, tally, try reader.item(key.item)) }
      .sorted { a, b in
        if a.0.table != b.0.table { return tables[a.0.table].name < tables[b.0.table].name }
        if a.0.period != b.0.period { return a.0.period < b.0.period }
        if a.1.plays != b.1.plays { return a.1.plays > b.1.plays }
        if a.1.totalMilliseconds != b.1.totalMilliseconds { return a.1.totalMilliseconds > b.1.totalMilliseconds }
        if a.2.artist != b.2.artist { return a.2.artist < b.2.artist }
        if a.2.title != b.2.title { return a.2.title < b.2.title }
        return a.2.key < b.2.key
      }
    for (key, tally, item) in rows {
      let table = tables[key.table]
      var fields: [CSVField] = []
      if grouping != nil {
        let period = table.periods[key.period]
        fields += [
          .number(table.calendar.format(period.startMilliseconds)),
          .number(table.calendar.format(period.endMilliseconds)),
        ]
      }
      if byChannel { fields.append(.text(table.name)) }
      fields += [
        .text(item.title), .text(item.artist), .text(item.album), .text(item.isrc), .text(item.label),
        .text(item.kind), .text(item.key), .number(String(tally.plays)),
        .number(FixedDecimal.format(Double(tally.totalMilliseconds) / 1000, places: 3)),
        .number(table.calendar.format(tally.firstStart)), .number(table.calendar.format(tally.lastStart)),
      ]
      try sink.writeRow(fields)
    }
  }
}
