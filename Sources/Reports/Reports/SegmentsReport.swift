/// The `segments` report: the labelled timeline, one row per stretch of each channel's air, by channel then time.
/// Columns `channel,start,end,label,item,cluster`: `label` is `catalog`, `unknown-music`, `speech`, `silence` or
/// `mixed`; `item` the catalog item's key for `catalog`; `cluster` the unknown segment's cluster for
/// `unknown-music`. An unknown segment whose cluster was promoted to the catalog (`catalog add --from-unknown`) is
/// `catalog` with the new item's key, and keeps its cluster, which says the play was identified late.
///
/// Thread: any one thread (the reader's).
package struct SegmentsReport: Sendable {
  package let scope: ReportScope

  package init(scope: ReportScope) { self.scope = scope }

  package static let header = ["channel", "start", "end", "label", "item", "cluster"]

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    guard try reader.hasAirStretches() else { return }
    var encoder = ReportRowEncoder(style: sink.rowStyle)
    for channel in try scope.stretchChannels(in: reader) {
      let rows = try reader.stretches(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds)
      for row in rows {
        encoder.reset()
        encoder.append(text: channel.name)
        encoder.append(time: row.startMilliseconds, on: channel.calendar)
        encoder.append(time: row.endMilliseconds, on: channel.calendar)
        encoder.append(text: row.promotedItemKey == nil ? row.label : "catalog")
        encoder.append(text: row.promotedItemKey ?? row.itemKey ?? "")
        encoder.append(number: row.cluster.map(String.init) ?? "")
        try sink.writeEncodedRow(encoder.bytes)
      }
    }
  }
}
