import Common

/// The `proof-of-play` report: every airing of the items of one kind (ads by default) with exact times and
/// durations, per advertiser, for spot verification.
///
/// Columns: `advertiser,channel,start,end,duration_s,item_duration_s,title,artist,item_key,cart,status,clip,
/// clip_missing_s`.
/// `advertiser` is the item's advertiser attribute (`advertiserAttribute`, a column of the catalog metadata);
/// `item_duration_s` is the spot's length in the catalog; `cart` is the traffic system's cart number or ISCI code
/// (the item's `cart` attribute, else its `isci`). `status` is the play's (`open`, `closed`, `recovered`,
/// `late`), except that a closed (or late) airing shorter than ``partialFraction`` of the spot's length is
/// `partial`: a cut spot. `clip` is the airing's audio clip when the monitor kept one (`unknown.catalogPlayClips`),
/// and `clip_missing_s` the seconds of the airing's start it lacks (0 when it holds the whole airing; more when the
/// airing was longer than the audio a channel keeps, or the play's row began before a restart); both are empty
/// without a clip. Rows: by advertiser, then air time, then channel.
///
/// Thread: any one thread (the reader's).
package struct ProofOfPlayReport: Sendable {
  package let scope: ReportScope
  /// The item kind listed (`ad`).
  package let kind: ItemKind
  /// The attribute that names the advertiser.
  package let advertiserAttribute: String

  package init(scope: ReportScope, kind: ItemKind = .ad, advertiserAttribute: String = "advertiser") {
    self.scope = scope
    self.kind = kind
    self.advertiserAttribute = advertiserAttribute
  }

  package static let header = [
    "advertiser", "channel", "start", "end", "duration_s", "item_duration_s", "title", "artist", "item_key", "cart",
    "status", "clip", "clip_missing_s",
  ]

  /// An airing shorter than this share of the spot's catalog length was cut: the advertiser did not get the spot
  /// ordered (a 30 s spot that aired 27 s or more is whole; the margin covers the matcher's edges).
  package static let partialFraction = 0.9

  /// The item attributes that hold a spot's cart number or ISCI code, in the order they are looked for.
  package static let cartAttributes = ["cart", "isci"]

  /// `item`'s cart number or ISCI code, "" when it has neither.
  package static func cart(of item: CatalogItem) -> String {
    cartAttributes.lazy.compactMap { item.metadata.attribute($0) }.first { !$0.isEmpty } ?? ""
  }

  /// True when an airing of `durationMilliseconds` is shorter than ``partialFraction`` of `item`'s length.
  package static func isPartial(durationMilliseconds: Int64, of item: CatalogItem) -> Bool {
    guard let length = item.durationMilliseconds else { return false }
    return Double(durationMilliseconds) < Double(length) * partialFraction
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    let channels = try scope.channels(in: reader)
    // Each channel through its own index (which holds the item, so other plays are skipped before the table is
    // read), gathered per advertiser, then put in air order within each advertiser.
    var airingsByAdvertiser: [String: [(play: PlaySpan, channel: Int)]] = [:]
    var clips: [Int64: PlayLogReader.PlayClipRow] = [:]
    for (index, channel) in channels.enumerated() where channel.fromMilliseconds < channel.toMilliseconds {
      let channelClipRows = try reader.playClips(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds)
      let channelClips = Dictionary(grouping: channelClipRows, by: \.itemKey)
      try reader.forEachPlay(
        channelID: channel.id, itemKind: kind, fromMilliseconds: channel.fromMilliseconds,
        toMilliseconds: channel.toMilliseconds
      ) { play in
        let item = try reader.item(play.itemID)
        let advertiser = item.metadata.attribute(advertiserAttribute) ?? ""
        airingsByAdvertiser[advertiser, default: []].append((play, index))
        if let clip = Self.clip(of: play, among: channelClips[item.key] ?? []) { clips[play.id] = clip }
      }
      progress?(Double(index + 1) / Double(channels.count))
    }
    var ordered: [(advertiser: String, play: PlaySpan, channel: Int)] = []
    for advertiser in airingsByAdvertiser.keys.sorted() {
      let airings = airingsByAdvertiser[advertiser]!.sorted { a, b in
        if a.play.startMilliseconds != b.play.startMilliseconds {
          return a.play.startMilliseconds < b.play.startMilliseconds
        }
        return a.channel != b.channel ? a.channel < b.channel : a.play.id < b.play.id
      }
      ordered += airings.map { (advertiser, $0.play, $0.channel) }
    }
    var encoder = ReportRowEncoder(style: sink.rowStyle)
    var advertiserCells: [String: [UInt8]] = [:]
    var itemCells: [Int64: [UInt8]] = [:]
    let channelCells = channels.map { encoder.encoded($0.name) }
    for airing in ordered {
      let calendar = channels[airing.channel].calendar
      encoder.reset()
      if let cell = advertiserCells[airing.advertiser] {
        encoder.append(encoded: cell)
      } else {
        let cell = encoder.encoded(airing.advertiser)
        advertiserCells[airing.advertiser] = cell
        encoder.append(encoded: cell)
      }
      encoder.append(encoded: channelCells[airing.channel])
      encoder.append(time: airing.play.startMilliseconds, on: calendar)
      encoder.append(time: airing.play.endMilliseconds, on: calendar)
      encoder.append(milliseconds: airing.play.durationMilliseconds)
      if let cells = itemCells[airing.play.itemID] {
        encoder.append(encoded: cells)
      } else {
        let item = try reader.item(airing.play.itemID)
        var cells = ReportRowEncoder(style: encoder.style)
        if let duration = item.durationMilliseconds {
          cells.append(milliseconds: duration)
        } else {
          cells.append(number: "")
        }
        cells.append(text: item.metadata.title)
        cells.append(text: item.metadata.artist)
        cells.append(text: item.key)
        cells.append(text: Self.cart(of: item))
        itemCells[airing.play.itemID] = cells.bytes
        encoder.append(encoded: cells.bytes)
      }
      let item = try reader.item(airing.play.itemID)
      let partial =
        airing.play.status.hasFinalEnd
        && Self.isPartial(durationMilliseconds: airing.play.durationMilliseconds, of: item)
      encoder.append(text: partial ? "partial" : airing.play.status.rawValue)
      if let clip = clips[airing.play.id] {
        encoder.append(text: clip.path)
        encoder.append(milliseconds: max(0, clip.clipStartMilliseconds - airing.play.startMilliseconds))
      } else {
        encoder.append(text: "")
        encoder.append(number: "")
      }
      try sink.writeEncodedRow(encoder.bytes)
    }
  }

  /// The clip of `play` among its item's clips on its channel: the one whose play overlaps it most; nil when none
  /// overlaps it.
  static func clip(of play: PlaySpan, among clips: [PlayLogReader.PlayClipRow]) -> PlayLogReader.PlayClipRow? {
    var best: (clip: PlayLogReader.PlayClipRow, overlap: Int64)?
    for clip in clips {
      let overlap =
        min(clip.playEndMilliseconds, play.endMilliseconds) - max(clip.playStartMilliseconds, play.startMilliseconds)
      if overlap > 0 && overlap > best?.overlap ?? 0 { best = (clip, overlap) }
    }
    return best?.clip
  }
}
