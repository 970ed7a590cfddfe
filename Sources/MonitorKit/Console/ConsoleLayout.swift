import Foundation

/// The console's screen as a pure function: a snapshot of the monitor, the selection and the terminal's size in,
/// exactly `height` lines of exactly `width` columns out. `ConsoleView` writes them to the terminal; the tests read
/// them.
///
/// The overview has a two-line header (uptime, catalog, CPU; play log and its health, JACK), one row per channel
/// (two lines below 140 columns), a panel of the last plays across channels, and a footer with the keys. The detail
/// view (`ConsoleLayout+Detail.swift`) shows one channel in full. Text is cut at its display width with "…", never
/// inside a character; wide (CJK) characters and emoji count two columns.
///
/// Threads: pure functions; any thread.
enum ConsoleLayout {
  /// One line of the screen, and how it is shown.
  struct Line: Equatable, Sendable {
    enum Style: Sendable {
      case plain, title, heading, selected, warning, alert, dim
    }
    /// A colour for part of a line (a channel's state), shown when the terminal takes colours.
    enum Colour: Sendable {
      case green, yellow, red
    }
    /// `width` columns from display column `column` shown in `colour`.
    struct Accent: Equatable, Sendable {
      var column: Int
      var width: Int
      var colour: Colour
    }
    var text: String
    var style: Style = .plain
    var accents: [Accent] = []
  }

  /// Below this width a channel takes two lines.
  static let oneLineRowWidth = 140

  /// The whole screen.
  static func lines(_ snapshot: ConsoleSnapshot, _ selection: ConsoleSelection, width: Int, height: Int) -> [Line] {
    guard width > 0, height > 0 else { return [] }
    var lines: [Line]
    if selection.showsDetail, snapshot.channels.indices.contains(selection.channel) {
      lines = detailLines(snapshot, snapshot.channels[selection.channel], width: width, height: height)
    } else {
      lines = overviewLines(snapshot, selection, width: width, height: height)
    }
    if lines.count > height { lines.removeLast(lines.count - height) }
    lines += Array(repeating: Line(text: ""), count: height - lines.count)
    return lines.map { line in
      let accents = line.accents.filter { $0.column + $0.width <= width }
      return Line(text: DisplayWidth.fit(line.text, to: width), style: line.style, accents: accents)
    }
  }

  // MARK: Overview

  private static func overviewLines(
    _ snapshot: ConsoleSnapshot, _ selection: ConsoleSelection, width: Int, height: Int
  ) -> [Line] {
    var lines = header(snapshot, width: width)
    let footer = Line(text: "q quit  Up/Down select  Enter details", style: .dim)
    let oneLine = width >= oneLineRowWidth
    let channels = snapshot.channels
    let nameWidth = channelNameWidth(channels)
    let table = channelTable(oneLine: oneLine, width: width, nameWidth: nameWidth)
    let detailTable = oneLine ? nil : playingTable(width: width)
    let linesPerChannel = oneLine ? 1 : 2

    // Channels first; the plays panel gets at least its heading and three plays when there is room for it.
    let room = max(0, height - lines.count - linesPerChannel - 1)  // the table's heading lines and the footer
    let panelMinimum = 4
    let fitAll = channels.count * linesPerChannel
    let channelLines = fitAll + panelMinimum <= room ? fitAll : max(min(fitAll, linesPerChannel), room - panelMinimum)
    let visible = max(0, min(channels.count, channelLines / linesPerChannel))
    let first = max(0, min(selection.channel - visible / 2, channels.count - visible))
    let range = first..<(first + visible)

    var heading = "  " + table.headingRow
    if visible < channels.count {
      // Which channels are shown, at the end of the heading (over the columns on the right when it must).
      let note = " \(range.lowerBound + 1)-\(range.upperBound) of \(channels.count)"
      var kept = heading
      while kept.last == " " { kept.removeLast() }
      heading =
        DisplayWidth.of(kept) + DisplayWidth.of(note) <= width
        ? kept + note : DisplayWidth.truncate(heading, to: max(0, width - DisplayWidth.of(note))) + note
    }
    lines.append(Line(text: heading, style: .heading))
    if let detailTable {
      // The second line of each channel gets its labels too, under the first line's.
      lines.append(Line(text: "    " + detailTable.headingRow, style: .heading))
    }
    let stateColumn = table.span(ofColumn: stateColumnIndex).map { 2 + $0.column }
    for index in range {
      let status = channels[index]
      let selected = index == selection.channel
      let marker = selected ? "> " : "  "
      let style: Line.Style =
        selected ? .selected : !status.alerts.isEmpty ? .alert : needsAttention(status) ? .warning : .plain
      var accents: [Line.Accent] = []
      if let stateColumn, let colour = stateColour(status) {
        let width = min(DisplayWidth.of(stateText(status)), stateWidth)
        accents.append(Line.Accent(column: stateColumn, width: width, colour: colour))
      }
      lines.append(
        Line(
          text: marker + table.row(channelCells(status, snapshot.now, oneLine: oneLine)), style: style,
          accents: accents))
      if let detailTable {
        lines.append(Line(text: "    " + detailTable.row(playingCells(status, snapshot.now)), style: style))
      }
    }

    let panelRoom = height - lines.count - 1
    if panelRoom >= 2 {
      lines.append(Line(text: String(repeating: "─", count: width), style: .dim))
      lines.append(Line(text: "  Last plays", style: .heading))
      let plays = recentPlays(snapshot.channels).prefix(panelRoom - 2)
      if plays.isEmpty {
        lines.append(Line(text: "  none yet", style: .dim))
      }
      let playTable = playsTable(width: width - 2, nameWidth: nameWidth)
      for play in plays {
        lines.append(Line(text: "  " + playTable.row(playCells(play, snapshot.now, in: snapshot.timeZone))))
      }
    }
    while lines.count < height - 1 { lines.append(Line(text: "")) }
    lines.append(footer)
    return lines
  }

  /// Uptime, catalog, CPU; play log and its health (and the other nodes that are down), JACK.
  static func header(_ snapshot: ConsoleSnapshot, width: Int) -> [Line] {
    let overview = snapshot.overview
    let uptime = duration(snapshot.now.timeIntervalSince(overview.startedAt))
    let cpu = snapshot.cpuPercent.map { String(format: "CPU %.0f %%", $0) } ?? "CPU -"
    let catalog =
      "catalog \(overview.catalogItems) items, "
      + (overview.catalogHours < 1
        ? String(format: "%.1f min", overview.catalogHours * 60) : String(format: "%.1f h", overview.catalogHours))
    let clock = clockTime(snapshot.now, in: snapshot.timeZone) + " " + zoneLabel(snapshot.timeZone, at: snapshot.now)
    let full = "broadcast-monitor  up \(uptime)  \(catalog)  \(cpu)"
    let left = DisplayWidth.of(full) + 1 + DisplayWidth.of(clock) <= width ? full : "up \(uptime)  \(cpu)  \(catalog)"
    let title = DisplayWidth.truncate(left, to: width - DisplayWidth.of(clock) - 1)
    let gap = max(1, width - DisplayWidth.of(title) - DisplayWidth.of(clock))
    let first =
      DisplayWidth.of(title) + 1 + DisplayWidth.of(clock) <= width
      ? title + String(repeating: " ", count: gap) + clock : DisplayWidth.truncate(left, to: width)

    let store =
      overview.storeFailing
      ? "CANNOT BE WRITTEN, \(overview.storeBacklog) writes waiting"
      : (overview.storeBacklog > 100 ? "ok, \(overview.storeBacklog) writes waiting" : "ok")
    let jack: String
    if let server = overview.jack {
      if server.connected {
        jack =
          "JACK \(server.sampleRateHz.map(String.init) ?? "?") Hz, \(server.bufferFrames.map(String.init) ?? "?")"
          + " frames, \(server.xruns) xruns"
      } else {
        jack = "JACK server \(server.serverName ?? "(default)") away, retrying"
      }
    } else {
      jack = "JACK not used"
    }
    // The nodes of an open `node_down` alert: each has been silent for at least its shortest `forSeconds`.
    let downNodes =
      overview.alerts.contains { $0.kind == .nodeDown }
      ? overview.peerNodes.filter { $0.silentSeconds >= AlertSettings.minNodeDownSeconds }.map(\.node) : []
    let jackText = "  " + jack
    let down = downNodes.map(DisplayWidth.printable).joined(separator: ", ")
    // The channels waiting for the node that holds them (a standby's): by node, each with its channels.
    let holders = Dictionary(grouping: overview.waitingChannels, by: \.heldBy)
    let waiting = holders.keys.sorted().map { holder in
      ", waiting for node \(DisplayWidth.printable(holder)): "
        + (holders[holder] ?? []).map { DisplayWidth.printable($0.name) }.joined(separator: ", ")
    }.joined()
    let storeText = ": \(store)" + (downNodes.isEmpty ? "" : ", NODE DOWN: \(down)") + waiting
    let pathRoom = width - DisplayWidth.of("play log ") - DisplayWidth.of(storeText) - DisplayWidth.of(jackText)
    let second = "play log " + truncateLeft(overview.databasePath, to: max(8, pathRoom)) + storeText + jackText
    let warn = overview.storeFailing || overview.jack.map { !$0.connected } == true || !downNodes.isEmpty
    return [Line(text: first, style: .title), Line(text: second, style: warn ? .warning : .plain)]
  }

  // MARK: Channel rows

  /// The widest channel name, in columns, at most `maxChannelNameWidth`: the channel columns' preferred width, so
  /// that a wide terminal shows every name in full.
  static func channelNameWidth(_ channels: [ChannelStatus]) -> Int {
    min(maxChannelNameWidth, channels.map { DisplayWidth.of(DisplayWidth.printable($0.name)) }.max() ?? 0)
  }

  /// A channel column grows to the longest name up to this width; longer names are cut with "…". 40 columns fit
  /// any station's name seen so far, and leave a 160-column row room for the item on air.
  static let maxChannelNameWidth = 40

  /// Where the state is among the channel table's columns, and its width.
  private static let stateColumnIndex = 2
  private static let stateWidth = 12

  /// The colour of a channel's state: green while it matches, yellow while it is behind, red while its source is
  /// away; none while it starts, listens for something to match, or has ended.
  static func stateColour(_ status: ChannelStatus) -> Line.Colour? {
    switch status.input {
    case .reconnecting: .red
    case .running where status.laggingSince != nil: .yellow
    case .running where status.matcher == .matching: .green
    case .running, .starting, .ended: nil
    }
  }

  private static func channelTable(oneLine: Bool, width: Int, nameWidth: Int) -> ConsoleColumns {
    var columns: [ConsoleColumns.Column] = [
      .flexible("CHANNEL", min: 6, preferred: max(10, nameWidth), priority: 100),
      .flexible("SOURCE", min: 8, preferred: 28, priority: 10),
      .fixed("STATE", stateWidth, priority: 90),
      .fixed("LEVEL", 10, priority: 30),
      .fixed("dBFS", 6, right: true, priority: 50),
    ]
    if oneLine {
      columns += playingColumns
    }
    columns.append(.fixed("OVR/GAP", 7, right: true, priority: 20))
    if !oneLine { columns[1].takesRest = true }
    return ConsoleColumns(columns, width: width - 2)
  }

  /// The current item's columns: on their own line below 140 columns, at the end of the row above.
  private static let playingColumns: [ConsoleColumns.Column] = [
    .flexible("NOW PLAYING", min: 12, preferred: 40, priority: 80, takesRest: true),
    .fixed("ON AIR", 7, right: true, priority: 70),
    .fixed("REF", 7, right: true, priority: 25),
    .fixed("SPEED", 7, right: true, priority: 40),
    .fixed("CONF", 4, right: true, priority: 35),
  ]

  private static func playingTable(width: Int) -> ConsoleColumns {
    ConsoleColumns(playingColumns, width: width - 4)
  }

  private static func channelCells(_ status: ChannelStatus, _ now: Date, oneLine: Bool) -> [String] {
    [
      status.name, status.source, stateText(status), meter(status.peakLevelDB, width: 10),
      levelText(status.peakLevelDB),
    ]
      + (oneLine ? playingCells(status, now) : []) + ["\(status.overrunCount)/\(status.gapCount)"]
  }

  /// Title – artist, on air, reference position, speed, confidence of the channel's current play.
  private static func playingCells(_ status: ChannelStatus, _ now: Date) -> [String] {
    guard let play = status.current.first else {
      if let music = status.unknownMusic {
        return [unknownMusicText(music), duration(now.timeIntervalSince(music.since)), "", "", ""]
      }
      return [status.input == .reconnecting ? "(no audio)" : "-", "", "", "", ""]
    }
    let more = status.current.count > 1 ? " (+\(status.current.count - 1))" : ""
    return [
      itemText(title: play.title, artist: play.artist) + more,
      duration(now.timeIntervalSince(play.start)),
      duration(referencePosition(play)),
      String(format: "%.1f%%", play.speed * 100),
      String(format: "%.2f", play.confidence),
    ]
  }

  /// Unknown music on air, with its cluster when known: `unknown music (cluster 7)`.
  static func unknownMusicText(_ music: ChannelStatus.UnknownMusic) -> String {
    "unknown music" + (music.cluster.map { " (cluster \($0))" } ?? "")
  }

  /// Seconds into the reference at the play's newest matched audio.
  static func referencePosition(_ play: ChannelStatus.CurrentPlay) -> Double {
    play.referenceOffsetSeconds + play.end.timeIntervalSince(play.start) * play.speed
  }

  /// The channel's oldest open alert (`silence`, `source_down +1` with another one; the row is red), else the
  /// input's state, the matcher's while audio flows, or how far a lagging channel is behind: `behind 3.4 s`.
  static func stateText(_ status: ChannelStatus) -> String {
    if let first = status.alerts.first {
      return first.kind.rawValue + (status.alerts.count > 1 ? " +\(status.alerts.count - 1)" : "")
    }
    return switch status.input {
    case .starting: "starting"
    case .reconnecting: "reconnecting"
    case .ended: "ended"
    case .running where status.laggingSince != nil: "behind " + lagText(status.lagSeconds)
    case .running: status.matcher.rawValue
    }
  }

  /// A channel shown in the warning colour: reconnecting, or lagging.
  static func needsAttention(_ status: ChannelStatus) -> Bool {
    status.input == .reconnecting || status.laggingSince != nil
  }

  /// Seconds behind: `0.4 s`, `12 s`.
  static func lagText(_ seconds: Double) -> String {
    seconds < 9.95 ? String(format: "%.1f s", max(0, seconds)) : String(format: "%.0f s", seconds)
  }

  /// A bar for a level in dBFS from −60 (empty) to 0 (full): `[|||||   ]`.
  static func meter(_ db: Float, width: Int) -> String {
    let inside = max(0, width - 2)
    let fraction = db.isFinite ? Double(min(max((db + 60) / 60, 0), 1)) : 0
    let filled = Int((fraction * Double(inside)).rounded())
    return "[" + String(repeating: "|", count: filled) + String(repeating: " ", count: inside - filled) + "]"
  }

  /// A level in dBFS to a tenth: `-inf` for digital silence, and never above `0.0` (decoded lossy audio can peak a
  /// little above full scale; a meter that reads more than full scale only puzzles).
  static func levelText(_ db: Float) -> String {
    guard db.isFinite else { return db > 0 ? "0.0" : "-inf" }
    return db > -0.05 ? "0.0" : String(format: "%.1f", db)
  }

  // MARK: Last plays

  /// The plays the channels recognized recently, newest start first (withdrawn plays are not among them).
  static func recentPlays(_ channels: [ChannelStatus]) -> [ChannelStatus.RecentPlay] {
    channels.flatMap(\.recentPlays).sorted { ($0.start, $0.id) > ($1.start, $1.id) }
  }

  private static func playsTable(width: Int, nameWidth: Int) -> ConsoleColumns {
    ConsoleColumns(
      [
        .fixed("START", 8, priority: 90),
        .flexible("CHANNEL", min: 6, preferred: max(10, nameWidth), priority: 50),
        .flexible("ITEM", min: 12, preferred: 40, priority: 100, takesRest: true),
        .fixed("LENGTH", 8, right: true, priority: 60),
      ], width: width)
  }

  private static func playCells(_ play: ChannelStatus.RecentPlay, _ now: Date, in zone: TimeZone) -> [String] {
    let length = play.end.map { duration($0.timeIntervalSince(play.start)) } ?? "on air"
    return [clockTime(play.start, in: zone), play.channel, itemText(title: play.title, artist: play.artist), length]
  }

  // MARK: Text

  /// `Title – Artist`, or the title alone.
  static func itemText(title: String, artist: String) -> String {
    artist.isEmpty ? title : "\(title) – \(artist)"
  }

  /// `m:ss` below an hour, `h:mm:ss` from an hour.
  static func duration(_ seconds: Double) -> String {
    let total = Int(max(0, seconds).rounded(.down))
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
    return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
  }

  /// `HH:MM:SS` in `zone`.
  static func clockTime(_ date: Date, in zone: TimeZone) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
    let day = ((seconds % 86400) + 86400) % 86400
    return String(format: "%02d:%02d:%02d", day / 3600, day / 60 % 60, day % 60)
  }

  /// `UTC` for a zone on UTC at `date`, else its offset then: `UTC+01:00`, `UTC-05:00`, `UTC+05:30`.
  static func zoneLabel(_ zone: TimeZone, at date: Date) -> String {
    let offset = zone.secondsFromGMT(for: date)
    guard offset != 0 else { return "UTC" }
    let minutes = abs(offset) / 60
    return String(format: "UTC%@%02d:%02d", offset < 0 ? "-" : "+", minutes / 60, minutes % 60)
  }

  /// `…` and the end of `text` in `width` columns: for paths, whose end says the most.
  static func truncateLeft(_ text: String, to width: Int) -> String {
    guard DisplayWidth.of(text) > width else { return text }
    guard width > 1 else { return String(repeating: "…", count: max(0, width)) }
    var kept: [Character] = []
    var used = 0
    for character in text.reversed() {
      let w = DisplayWidth.of(character)
      if used + w > width - 1 { break }
      kept.append(character)
      used += w
    }
    return "…" + String(kept.reversed())
  }
}
