/// The `unknown` report: one row per cluster of unknown music (the same recording, aired again), most aired first.
/// Columns `cluster,first_aired,last_aired,airings,total_s,channels,clip`: first and last start, the number of
/// unknown segments, their seconds together, the channels they aired on (`;`-separated, by name) and the clip of
/// the longest airing that has one. Times are in the time zone of the channel of the first airing. A segment promoted
/// to the catalog (`catalog add --from-unknown`) is no longer unknown: it is left out (its play is in the plays).
///
/// Thread: any one thread (the reader's).
package struct UnknownReport: Sendable {
  package let scope: ReportScope

  package init(scope: ReportScope) { self.scope = scope }

  package static let header = ["cluster", "first_aired", "last_aired", "airings", "total_s", "channels", "clip"]

  private struct Tally {
    var first: Int64
    var firstChannel: Int
    var last: Int64
    var airings = 0
    var milliseconds: Int64 = 0
    var channels: Set<String> = []
    var clip: (path: String, milliseconds: Int64)?
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    guard try reader.hasAirStretches() else { return }
    let channels = try scope.stretchChannels(in: reader)
    var tallies: [Int64: Tally] = [:]
    for (index, channel) in channels.enumerated() {
      let rows = try reader.stretches(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds)
      for row in rows {
        guard let cluster = row.cluster, row.promotedItemKey == nil else { continue }
        let length = row.endMilliseconds - row.startMilliseconds
        var t =
          tallies[cluster] ?? Tally(first: row.startMilliseconds, firstChannel: index, last: row.startMilliseconds)
        if row.startMilliseconds < t.first {
          t.first = row.startMilliseconds
          t.firstChannel = index
        }
        t.last = max(t.last, row.startMilliseconds)
        t.airings += 1
        t.milliseconds += length
        t.channels.insert(channel.name)
        if let path = row.clipPath, length > t.clip?.milliseconds ?? -1 { t.clip = (path, length) }
        tallies[cluster] = t
      }
    }
    let order = tallies.sorted {
      ($0.value.airings, $0.value.milliseconds, -$0.key) > ($1.value.airings, $1.value.milliseconds, -$1.key)
    }
    var encoder = ReportRowEncoder(style: sink.rowStyle)
    for (cluster, t) in order {
      let calendar = channels[t.firstChannel].calendar
      encoder.reset()
      encoder.append(number: String(cluster))
      encoder.append(time: t.first, on: calendar)
      encoder.append(time: t.last, on: calendar)
      encoder.append(number: String(t.airings))
      encoder.append(milliseconds: t.milliseconds)
      encoder.append(text: t.channels.sorted().joined(separator: ";"))
      encoder.append(text: t.clip?.path ?? "")
      try sink.writeEncodedRow(encoder.bytes)
    }
  }
}
