/// The `proof-of-play` report: every airing of the items of one kind (ads by default) with exact times and
/// durations, per advertiser, for spot verification.
///
/// Columns: `advertiser,channel,start,end,duration_s,item_duration_s,title,artist,item_key,status`. `advertiser` is
/// the item's advertiser attribute (`advertiserAttribute`, a column of the catalog metadata); `item_duration_s` is
/// the spot's length in the catalog, so a spot cut short shows. Rows: by advertiser, then air time, then channel.
///
/// Thread: any one thread (the reader's).
package struct ProofOfPlayReport: Sendable {
  package let scope: ReportScope
  /// The item kind listed (`ad`).
  package let kind: String
  /// The attribute that names the advertiser.
  package let advertiserAttribute: String

  package init(scope: ReportScope, kind: String = "ad", advertiserAttribute: String = "advertiser") {
    self.scope = scope
    self.kind = kind
    self.advertiserAttribute = advertiserAttribute
  }

  package static let header = [
    "advertiser", "channel", "start", "end", "duration_s", "item_duration_s", "title", "artist", "item_key", "status",
  ]

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    let channels = try scope.channels(in: reader)
    var isListed: [Int64: Bool] = [:]
    var airings: [(advertiser: String, play: PlaySpan, channel: Int)] = []
    try ReportScope.forEachPlay(of: channels, in: reader, progress: progress) { play, channel in
      let listed: Bool
      if let known = isListed[play.itemID] {
        listed = known
      } else {
        listed = try reader.item(play.itemID).kind == kind
        isListed[play.itemID] = listed
      }
      guard listed else { return }
      airings.append((try reader.item(play.itemID).attribute(advertiserAttribute) ?? "", play, channel))
    }
    // Plays arrive in air order; a stable sort by advertiser keeps it within each advertiser.
    let ordered = airings.enumerated().sorted { a, b in
      a.element.advertiser != b.element.advertiser ? a.element.advertiser < b.element.advertiser : a.offset < b.offset
    }
    for (_, airing) in ordered {
      let channel = channels[airing.channel]
      let item = try reader.item(airing.play.itemID)
      try sink.writeRow([
        .text(airing.advertiser), .text(channel.name), .number(channel.calendar.format(airing.play.startMilliseconds)),
        .number(channel.calendar.format(airing.play.endMilliseconds)),
        .number(FixedDecimal.format(Double(airing.play.durationMilliseconds) / 1000, places: 3)),
        .number(item.durationMilliseconds.map { FixedDecimal.format(Double($0) / 1000, places: 3) } ?? ""),
        .text(item.title), .text(item.artist), .text(item.key), .text(airing.play.status.rawValue),
      ])
    }
  }
}
