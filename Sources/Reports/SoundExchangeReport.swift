/// The `soundexchange` report: a Report of Use with the fields of 37 CFR 370.4(d)(2), one row per sound recording
/// (songs only) played in the span on the selected channels.
///
/// Columns: `NAME_OF_SERVICE,TRANSMISSION_CATEGORY,FEATURED_ARTIST,SOUND_RECORDING_TITLE,ISRC,ALBUM_TITLE,
/// MARKETING_LABEL,ACTUAL_TOTAL_PERFORMANCES`. The service name and transmission category come from the
/// configuration. Actual total performances are plays × `audiencePerPlay` (the average number of listeners who
/// receive one play, from the configuration); without that figure the last column is `PLAY_FREQUENCY`, the number of
/// plays, which a service that cannot count its listeners reports instead. A recording is identified by its ISRC, or
/// by its catalog item when it has none. Rows: by artist, title, ISRC.
///
/// Written as CSV or as SoundExchange's plain pipe-delimited text (``PipeDelimitedWriter``).
///
/// Thread: any one thread (the reader's).
package struct SoundExchangeReport: Sendable {
  package let scope: ReportScope
  package let serviceName: String
  package let transmissionCategory: String
  /// Listeners per play; nil when unknown.
  package let audiencePerPlay: Double?

  package init(scope: ReportScope, serviceName: String, transmissionCategory: String, audiencePerPlay: Double?) {
    self.scope = scope
    self.serviceName = serviceName
    self.transmissionCategory = transmissionCategory
    self.audiencePerPlay = audiencePerPlay
  }

  /// The header: the last column depends on whether the audience is known.
  package var header: [String] {
    [
      "NAME_OF_SERVICE", "TRANSMISSION_CATEGORY", "FEATURED_ARTIST", "SOUND_RECORDING_TITLE", "ISRC", "ALBUM_TITLE",
      "MARKETING_LABEL", audiencePerPlay == nil ? "PLAY_FREQUENCY" : "ACTUAL_TOTAL_PERFORMANCES",
    ]
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    try sink.writeRow(header.map(CSVField.text))
    let channels = try scope.channels(in: reader)
    // SQLite counts each channel's plays over its span.
    var tallies: [Int64: ItemTally] = [:]
    for (index, channel) in channels.enumerated() {
      try reader.addTallies(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds,
        into: &tallies)
      progress?(Double(index + 1) / Double(channels.count))
    }
    // Songs only, merged by ISRC (or kept apart by item when they have none).
    var recordings: [String: (item: CatalogItem, plays: Int)] = [:]
    for (itemID, tally) in tallies {
      let plays = tally.plays
      let item = try reader.item(itemID)
      guard item.kind == "song" else { continue }
      let key = item.isrc.isEmpty ? "item:" + item.key : "isrc:" + item.isrc
      if let known = recordings[key] {
        recordings[key] = (known.item, known.plays + plays)
      } else {
        recordings[key] = (item, plays)
      }
    }
    let rows = recordings.values.sorted { a, b in
      if a.item.artist != b.item.artist { return a.item.artist < b.item.artist }
      if a.item.title != b.item.title { return a.item.title < b.item.title }
      if a.item.isrc != b.item.isrc { return a.item.isrc < b.item.isrc }
      return a.item.key < b.item.key
    }
    for (item, plays) in rows {
      let performances = audiencePerPlay.map { String(Int64((Double(plays) * $0).rounded())) } ?? String(plays)
      try sink.writeRow([
        .text(serviceName), .text(transmissionCategory), .text(item.artist), .text(item.title), .text(item.isrc),
        .text(item.album), .text(item.label), .number(performances),
      ])
    }
  }
}
