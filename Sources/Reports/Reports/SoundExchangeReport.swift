/// The `soundexchange` report: a Report of Use for one service (a station's call letters, as licensed) with the
/// fields of 37 CFR 370.4(d)(2), one row per sound recording (songs only) and channel played in the span.
///
/// Columns: the eleven of SoundExchange's Report of Use template, always all of them and in its order (``header``):
/// `NAME_OF_SERVICE,TRANSMISSION_CATEGORY,FEATURED_ARTIST,SOUND_RECORDING_TITLE,ISRC,ALBUM_TITLE,MARKETING_LABEL,
/// ACTUAL_TOTAL_PERFORMANCES,AGGREGATE_TUNING_HOURS,CHANNEL_OR_PROGRAM_NAME,PLAY_FREQUENCY`. The service name and
/// transmission category come from the configuration; the channel is the monitor's channel name. Actual total
/// performances add up each play's performances from the channel's ``AudienceFigure`` (listeners connected during
/// the play, an hourly audience, or a fixed listeners-per-play figure); when a channel of the report has no figure
/// at all, that column is empty and `PLAY_FREQUENCY`, the number of plays, is filled instead, as a service that
/// cannot count its listeners reports. `AGGREGATE_TUNING_HOURS` (a figure for the whole service, not per
/// recording) is left empty.
///
/// A recording is identified by its ISRC, written as SoundExchange expects it (12 characters, no hyphens), or by
/// its catalog item when it has none. An ISRC that is not one even without hyphens is left empty (album and label
/// then identify the recording) and listed in the ``Summary`` with its item, never passed through. A song left
/// without an ISRC and without both album and label is listed in the ``Summary`` too: SoundExchange needs the ISRC or,
/// failing it, the album title and marketing label together. Rows: by channel, artist, title, ISRC.
///
/// Written as CSV or as SoundExchange's plain pipe-delimited text (``PipeDelimitedWriter``).
///
/// Thread: any one thread (the reader's).
package struct SoundExchangeReport: Sendable {
  /// The transmission category codes of 37 CFR 370.4 in use: A, B and C for eligible nonsubscription transmissions
  /// (B a broadcaster's simulcast), H, I and J for new subscription services, K for business establishment services
  /// and L for preexisting satellite radio. D to G are reserved: categories that have expired.
  package static let transmissionCategories = ["A", "B", "C", "H", "I", "J", "K", "L"]

  package let scope: ReportScope
  package let serviceName: String
  package let transmissionCategory: String
  /// The channels of this service; nil for every channel of the scope.
  package let channels: Set<String>?
  /// Each channel's audience; a channel without one uses `audiencePerPlay`.
  package let audience: [String: any AudienceFigure]
  /// Listeners per play for a channel without its own figure; nil when unknown.
  package let audiencePerPlay: Double?

  package init(
    scope: ReportScope, serviceName: String, transmissionCategory: String, audiencePerPlay: Double?,
    channels: Set<String>? = nil, audience: [String: any AudienceFigure] = [:]
  ) {
    self.scope = scope
    self.serviceName = serviceName
    self.transmissionCategory = transmissionCategory
    self.audiencePerPlay = audiencePerPlay
    self.channels = channels
    self.audience = audience
  }

  /// What the report did, for its summary on stderr.
  package struct Summary: Sendable {
    /// The figure each channel's performances came from, by channel name; nil for a channel without one.
    package var sources: [String: String?] = [:]
    /// True when `ACTUAL_TOTAL_PERFORMANCES` is filled, false when `PLAY_FREQUENCY` is.
    package var actualPerformances = false
    /// Plays whose channel figure did not cover their time (counted as no performances).
    package var playsWithoutFigure = 0
    /// Items whose ISRC is not one, with the ISRC as the catalog has it.
    package var invalidISRCs: [(item: CatalogItem, isrc: String)] = []
    /// Songs in the report with no (valid) ISRC and without both an album title and a marketing label: SoundExchange
    /// identifies a recording by its ISRC or, when it has none, by its album and label together, so their rows do not
    /// identify them. Each item once, in row order.
    package var unidentified: [CatalogItem] = []
  }

  /// The header of SoundExchange's Report of Use template, in its order: the same eleven columns whichever
  /// audience figure fills them.
  package static let header = [
    "NAME_OF_SERVICE", "TRANSMISSION_CATEGORY", "FEATURED_ARTIST", "SOUND_RECORDING_TITLE", "ISRC", "ALBUM_TITLE",
    "MARKETING_LABEL", "ACTUAL_TOTAL_PERFORMANCES", "AGGREGATE_TUNING_HOURS", "CHANNEL_OR_PROGRAM_NAME",
    "PLAY_FREQUENCY",
  ]

  /// The channels of the report, each with its audience figure.
  package func channelsWithAudience(in reader: PlayLogReader) throws -> [(
    channel: ReportScope.Channel, figure: (any AudienceFigure)?
  )] {
    try scope.channels(in: reader).filter { channels?.contains($0.name) ?? true }.map { channel in
      (channel, audience[channel.name] ?? audiencePerPlay.map { ListenersPerPlay($0) })
    }
  }

  @discardableResult
  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws
    -> Summary
  {
    let selected = try channelsWithAudience(in: reader)
    var summary = Summary()
    summary.actualPerformances = !selected.isEmpty && selected.allSatisfy { $0.figure != nil }
    for (channel, figure) in selected { summary.sources.updateValue(figure?.source, forKey: channel.name) }
    try sink.writeRow(Self.header.map(CSVField.text))

    // Songs only, per channel, merged by ISRC (or kept apart by item when they have none or an invalid one).
    struct Recording {
      var item: CatalogItem
      var isrc: String
      var plays = 0
      var performances = 0.0
    }
    var isrcs: [Int64: String] = [:]
    /// The ISRC of a song as written in the report ("" when it has none or an invalid one), worked out once.
    func isrc(of item: CatalogItem) -> String {
      if let known = isrcs[item.id] { return known }
      var isrc = ""
      if !item.metadata.isrc.isEmpty {
        if let valid = ISRC.normalized(item.metadata.isrc) {
          isrc = valid
        } else {
          summary.invalidISRCs.append((item, item.metadata.isrc))
        }
      }
      isrcs[item.id] = isrc
      return isrc
    }
    var recordings: [(channel: String, recording: Recording)] = []
    for (index, (channel, figure)) in selected.enumerated() {
      // Per channel: each item's recording (an index into `found`, -1 for an item that is not a song), worked out
      // on its first play, so a play costs one lookup by item id.
      var slotOfItem: [Int64: Int] = [:]
      var slotOfKey: [String: Int] = [:]
      var found: [Recording] = []
      let measured = summary.actualPerformances ? figure : nil
      try reader.forEachStart(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds
      ) { itemID, start, end in
        var slot = slotOfItem[itemID] ?? -2
        if slot == -2 {
          let item = try reader.item(itemID)
          if item.metadata.kind == .song {
            let isrc = isrc(of: item)
            let key = isrc.isEmpty ? "item:" + item.key : "isrc:" + isrc
            if let known = slotOfKey[key] {
              slot = known
            } else {
              slot = found.count
              slotOfKey[key] = slot
              found.append(Recording(item: item, isrc: isrc))
            }
          } else {
            slot = -1
          }
          slotOfItem[itemID] = slot
        }
        guard slot >= 0 else { return }
        found[slot].plays += 1
        if let measured {
          if let performances = measured.performances(startMilliseconds: start, endMilliseconds: end) {
            found[slot].performances += performances
          } else {
            summary.playsWithoutFigure += 1
          }
        }
      }
      recordings += found.map { (channel.name, $0) }
      progress?(Double(index + 1) / Double(selected.count))
    }
    // The channels come in name order; within one, by artist, title, ISRC.
    let rows = recordings.sorted { a, b in
      if a.channel != b.channel { return a.channel < b.channel }
      let (x, y) = (a.recording, b.recording)
      if x.item.metadata.artist != y.item.metadata.artist { return x.item.metadata.artist < y.item.metadata.artist }
      if x.item.metadata.title != y.item.metadata.title { return x.item.metadata.title < y.item.metadata.title }
      if x.isrc != y.isrc { return x.isrc < y.isrc }
      return x.item.key < y.item.key
    }
    var unidentified: Set<Int64> = []
    for (channel, recording) in rows {
      let item = recording.item
      if recording.isrc.isEmpty && (item.metadata.album.isEmpty || item.metadata.label.isEmpty)
        && unidentified.insert(item.id).inserted
      {
        summary.unidentified.append(item)
      }
      let performances = summary.actualPerformances ? String(Int64(recording.performances.rounded())) : ""
      let plays = summary.actualPerformances ? "" : String(recording.plays)
      try sink.writeRow([
        .text(serviceName), .text(transmissionCategory), .text(item.metadata.artist), .text(item.metadata.title),
        .text(recording.isrc), .text(item.metadata.album), .text(item.metadata.label), .number(performances),
        .number(""), .text(channel), .number(plays),
      ])
    }
    return summary
  }
}
