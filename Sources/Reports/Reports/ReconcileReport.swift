import Common
import Foundation

/// The `reconcile` report: each spot the traffic system scheduled (`schedule import`) against what the monitor heard
/// air, for billing and affidavits.
///
/// Columns: `channel,cart,advertiser,title,scheduled_at,aired_start,aired_end,offset_s,status,aired_channel`, one
/// row per scheduled spot and one per airing that was never scheduled, by channel then time. `offset_s` is
/// `aired_start − scheduled_at` (positive: late). Statuses:
/// - `aired`: aired on its channel within `toleranceSeconds` of its time;
/// - `aired-late`, `aired-early`: aired on its channel, further from its time than the tolerance;
/// - `partial`: aired on its channel shorter than ``ProofOfPlayReport/partialFraction`` of its length (the
///   scheduled `length_s`, else the catalog's): a cut spot;
/// - `wrong-channel`: not on its channel, but the same cart aired on another one (`aired_channel`) near its time;
/// - `missed`: not aired, while its channel was heard;
/// - `unmonitored`: not found, and its channel was not heard (a gap in its input, ``PlayLogReader/unheardSpans``)
///   within the tolerance of its time and length: whether it aired is not known;
/// - `pending`: not found, and its time, length and tolerance reach past the report's `now`: it may still air on
///   time (a report of today, run during the day, lists the rest of the day's spots so);
/// - `unscheduled`: an airing of a spot (an item of `kind`, or any item with a cart) that matches no scheduled spot.
///
/// Matching: an airing matches a scheduled spot of the same cart (the item's `cart`, else `isci` attribute,
/// compared without case) that starts within ``matchWindowMilliseconds`` of it; the closest pairs are matched
/// first, so a cart scheduled every hour matches each airing to its own hour. Spots left over then match airings
/// of their cart on other channels, closest first (`wrong-channel`). Spots up to a match window outside the report's
/// span take part in the matching and are not listed, so that a report's verdicts near its edges are those of a
/// report over a longer span: a spot at 23:59:40 that aired at 00:00:00 is `aired` in both days' reports, and its
/// airing is not `unscheduled` in the second.
///
/// Thread: any one thread (the reader's).
package struct ReconcileReport: Sendable {
  /// How far an airing may be from its scheduled time and still be that spot: a break that slips past the hour
  /// is late, not missed.
  package static let matchWindowMilliseconds: Int64 = 3_600_000

  /// Within this many seconds of its time a spot is `aired` unless `--tolerance` says otherwise: automation runs a
  /// break within a minute or so of its log time.
  package static let defaultToleranceSeconds = 60.0

  package let scope: ReportScope
  /// Within this many seconds of its time a spot is `aired`; beyond, late or early.
  package let toleranceSeconds: Double
  /// The item kind whose airings are spots (`ad`).
  package let kind: ItemKind
  /// The attribute that names an unscheduled airing's advertiser.
  package let advertiserAttribute: String
  /// The time the report is made, in milliseconds since 1970: a spot not found whose time, length and tolerance
  /// reach past it is `pending`.
  package let nowMilliseconds: Int64

  package init(
    scope: ReportScope, toleranceSeconds: Double = ReconcileReport.defaultToleranceSeconds, kind: ItemKind = .ad,
    advertiserAttribute: String = "advertiser", now: Date = Date()
  ) {
    self.scope = scope
    self.toleranceSeconds = toleranceSeconds
    self.kind = kind
    self.advertiserAttribute = advertiserAttribute
    self.nowMilliseconds = now.millisecondsSince1970
  }

  package static let header = [
    "channel", "cart", "advertiser", "title", "scheduled_at", "aired_start", "aired_end", "offset_s", "status",
    "aired_channel",
  ]

  /// One airing of a spot.
  private struct Airing {
    var channel: Int
    /// The item's cart, lower-cased, for matching; "" when it has none.
    var cart: String
    var play: PlaySpan
  }

  /// One scheduled spot and what became of it.
  private struct Row {
    var channel: Int
    var spot: ScheduledSpot?
    var airing: Airing?
    var status: String
  }

  package func write(from reader: PlayLogReader, to sink: any ReportRowSink, progress: ReportProgress? = nil) throws {
    try sink.writeRow(Self.header.map(CSVField.text))
    guard try reader.hasSchedule() else { throw ReportError.noSchedule(path: reader.path) }
    var channels = try scope.channels(in: reader)
    // Without --from or --to, the span reaches the schedule's first and last spot too.
    for index in channels.indices {
      guard let range = try reader.scheduleRange(channelID: channels[index].id) else { continue }
      let hasPlays = channels[index].fromMilliseconds < channels[index].toMilliseconds
      if scope.from == nil {
        channels[index].fromMilliseconds =
          hasPlays ? min(channels[index].fromMilliseconds, range.first) : range.first
      }
      if scope.to == nil {
        channels[index].toMilliseconds = hasPlays ? max(channels[index].toMilliseconds, range.last + 1) : range.last + 1
      }
    }
    // `inSpan`: the spot is in the report. Spots a match window either side are matched too, and left out: the
    // airing a spot just before the span took is not then taken by one inside it, and the next day's report gives
    // the same verdict as today's for a spot at the edge between them.
    var spots: [(channel: Int, spot: ScheduledSpot, inSpan: Bool)] = []
    var airings: [Airing] = []
    // When each channel was not heard, by channel index.
    var unheard: [[(start: Int64, end: Int64?)]] = Array(repeating: [], count: channels.count)
    // Each item's cart, lower-cased, worked out on its first airing; nil for an item that is not a spot.
    var cartOfItem: [Int64: String?] = [:]
    for (index, channel) in channels.enumerated() where channel.fromMilliseconds < channel.toMilliseconds {
      for spot in try reader.scheduledSpots(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds - Self.matchWindowMilliseconds,
        toMilliseconds: channel.toMilliseconds + Self.matchWindowMilliseconds)
      {
        let inSpan =
          spot.scheduledAtMilliseconds >= channel.fromMilliseconds
          && spot.scheduledAtMilliseconds < channel.toMilliseconds
        spots.append((index, spot, inSpan))
      }
      unheard[index] = try reader.unheardSpans(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds - Self.matchWindowMilliseconds,
        toMilliseconds: channel.toMilliseconds + Self.matchWindowMilliseconds)
      // Airings a window either side of the span, so a spot near its edge still finds its airing.
      try reader.forEachPlay(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds - Self.matchWindowMilliseconds,
        toMilliseconds: channel.toMilliseconds + Self.matchWindowMilliseconds
      ) { play in
        let cart: String?
        if let known = cartOfItem[play.itemID] {
          cart = known
        } else {
          let item = try reader.item(play.itemID)
          let found = ProofOfPlayReport.cart(of: item)
          cart = item.metadata.kind == kind || !found.isEmpty ? found.lowercased() : nil
          cartOfItem[play.itemID] = .some(cart)
        }
        guard let cart else { return }
        airings.append(Airing(channel: index, cart: cart, play: play))
      }
      progress?(Double(index + 1) / Double(channels.count))
    }

    // Closest pairs first: on the spot's channel, then on any other.
    var airingOfSpot: [Int?] = Array(repeating: nil, count: spots.count)
    var spotOfAiring: [Int?] = Array(repeating: nil, count: airings.count)
    // Each cart's airings by start time, so a spot looks only at those within the window of its time.
    var airingsByCart: [String: [Int]] = [:]
    for (index, airing) in airings.enumerated() where !airing.cart.isEmpty {
      airingsByCart[airing.cart, default: []].append(index)
    }
    for cart in airingsByCart.keys {
      airingsByCart[cart]!.sort { airings[$0].play.startMilliseconds < airings[$1].play.startMilliseconds }
    }
    for sameChannel in [true, false] {
      var pairs: [(distance: Int64, spot: Int, airing: Int)] = []
      for (spotIndex, entry) in spots.enumerated() where airingOfSpot[spotIndex] == nil {
        guard let candidates = airingsByCart[entry.spot.cart.lowercased()] else { continue }
        let earliest = entry.spot.scheduledAtMilliseconds - Self.matchWindowMilliseconds
        let latest = entry.spot.scheduledAtMilliseconds + Self.matchWindowMilliseconds
        let first = BinarySearch.partitionPoint(in: candidates.indices) {
          airings[candidates[$0]].play.startMilliseconds < earliest
        }
        for airingIndex in candidates[first...].prefix(while: { airings[$0].play.startMilliseconds <= latest })
        where spotOfAiring[airingIndex] == nil && (airings[airingIndex].channel == entry.channel) == sameChannel {
          let distance = abs(airings[airingIndex].play.startMilliseconds - entry.spot.scheduledAtMilliseconds)
          pairs.append((distance, spotIndex, airingIndex))
        }
      }
      pairs.sort { ($0.distance, $0.spot, $0.airing) < ($1.distance, $1.spot, $1.airing) }
      for pair in pairs where airingOfSpot[pair.spot] == nil && spotOfAiring[pair.airing] == nil {
        airingOfSpot[pair.spot] = pair.airing
        spotOfAiring[pair.airing] = pair.spot
      }
    }

    var rows: [Row] = []
    // A matched spot is never further than the match window from its time, so a wider tolerance (or an infinite one)
    // is the window; a negative or NaN one is none.
    let tolerance =
      toleranceSeconds >= 0
      ? Int64(min(toleranceSeconds * 1000, Double(Self.matchWindowMilliseconds)).rounded()) : 0
    for (spotIndex, entry) in spots.enumerated() where entry.inSpan {
      guard let airingIndex = airingOfSpot[spotIndex] else {
        let from = entry.spot.scheduledAtMilliseconds - tolerance
        let to = entry.spot.scheduledAtMilliseconds + (entry.spot.lengthMilliseconds ?? 0) + tolerance
        let status: String
        if to > nowMilliseconds {
          status = "pending"
        } else if unheard[entry.channel].contains(where: { $0.start <= to && ($0.end ?? .max) >= from }) {
          status = "unmonitored"
        } else {
          status = "missed"
        }
        rows.append(Row(channel: entry.channel, spot: entry.spot, airing: nil, status: status))
        continue
      }
      let airing = airings[airingIndex]
      let offset = airing.play.startMilliseconds - entry.spot.scheduledAtMilliseconds
      let length = try entry.spot.lengthMilliseconds ?? reader.item(airing.play.itemID).durationMilliseconds
      let status: String
      if airing.channel != entry.channel {
        status = "wrong-channel"
      } else if airing.play.status.hasFinalEnd, let length,
        Double(airing.play.durationMilliseconds) < Double(length) * ProofOfPlayReport.partialFraction
      {
        status = "partial"
      } else if offset > tolerance {
        status = "aired-late"
      } else if offset < -tolerance {
        status = "aired-early"
      } else {
        status = "aired"
      }
      rows.append(Row(channel: entry.channel, spot: entry.spot, airing: airing, status: status))
    }
    for (airingIndex, airing) in airings.enumerated() where spotOfAiring[airingIndex] == nil {
      let channel = channels[airing.channel]
      guard airing.play.startMilliseconds >= channel.fromMilliseconds,
        airing.play.startMilliseconds < channel.toMilliseconds
      else { continue }
      rows.append(Row(channel: airing.channel, spot: nil, airing: airing, status: "unscheduled"))
    }
    func time(_ row: Row) -> Int64 { row.spot?.scheduledAtMilliseconds ?? row.airing!.play.startMilliseconds }
    // The channels are in name order, so their indexes sort the rows by channel name.
    rows.sort { a, b in
      if a.channel != b.channel { return a.channel < b.channel }
      if time(a) != time(b) { return time(a) < time(b) }
      return (a.spot?.cart ?? a.airing!.cart) < (b.spot?.cart ?? b.airing!.cart)
    }

    var encoder = ReportRowEncoder(style: sink.rowStyle)
    let channelCells = channels.map { encoder.encoded($0.name) }
    for row in rows {
      let calendar = channels[row.channel].calendar
      let item = try row.airing.map { try reader.item($0.play.itemID) }
      encoder.reset()
      encoder.append(encoded: channelCells[row.channel])
      if let spot = row.spot {
        encoder.append(text: spot.cart)
        encoder.append(text: spot.advertiser)
        encoder.append(text: spot.title.isEmpty ? item?.metadata.title ?? "" : spot.title)
        encoder.append(time: spot.scheduledAtMilliseconds, on: calendar)
      } else if let item {
        encoder.append(text: ProofOfPlayReport.cart(of: item))
        encoder.append(text: item.metadata.attribute(advertiserAttribute) ?? "")
        encoder.append(text: item.metadata.title)
        encoder.append(number: "")
      }
      if let airing = row.airing {
        let airedCalendar = channels[airing.channel].calendar
        encoder.append(time: airing.play.startMilliseconds, on: airedCalendar)
        encoder.append(time: airing.play.endMilliseconds, on: airedCalendar)
      } else {
        encoder.append(number: "")
        encoder.append(number: "")
      }
      if let spot = row.spot, let airing = row.airing {
        encoder.append(milliseconds: airing.play.startMilliseconds - spot.scheduledAtMilliseconds)
      } else {
        encoder.append(number: "")
      }
      encoder.append(text: row.status)
      if let airing = row.airing {
        encoder.append(encoded: channelCells[airing.channel])
      } else {
        encoder.append(number: "")
      }
      try sink.writeEncodedRow(encoder.bytes)
    }
  }
}
