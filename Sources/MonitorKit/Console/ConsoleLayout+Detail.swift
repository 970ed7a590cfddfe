import Foundation

/// The detail view of one channel: every field of its status, every play on air now with its reference offset,
/// speed and confidence, its last plays, and its recent log lines.
extension ConsoleLayout {
  static func detailLines(_ snapshot: ConsoleSnapshot, _ status: ChannelStatus, width: Int, height: Int) -> [Line] {
    var lines = header(snapshot, width: width)
    lines.append(Line(text: "Channel \(status.name)", style: .heading))
    func field(_ name: String, _ value: String, style: Line.Style = .plain, accents: [Line.Accent] = []) {
      lines.append(
        Line(
          text: "  " + DisplayWidth.fit(name, to: 13) + DisplayWidth.printable(value), style: style, accents: accents))
    }
    field("source", status.source)
    let state = stateText(status)
    field(
      "state", "\(state) (input \(status.input.rawValue), matcher \(status.matcher.rawValue))",
      style: needsAttention(status) ? .warning : .plain,
      accents: stateColour(status).map { [Line.Accent(column: 15, width: DisplayWidth.of(state), colour: $0)] } ?? [])
    field(
      "level", meter(status.peakLevelDB, width: min(42, max(12, width - 30))) + " \(levelText(status.peakLevelDB)) dBFS"
    )
    let rate = status.sourceSampleRate.map { String(format: "%.0f Hz", $0) } ?? "unknown"
    field("source rate", "\(rate), \(status.xruns) xruns")
    if let since = status.laggingSince {
      field(
        "lag",
        "\(lagText(status.lagSeconds)) of audio waiting: lagging since \(clockTime(since, in: snapshot.timeZone)) "
          + zoneLabel(snapshot.timeZone, at: since),
        style: .warning)
    } else {
      field("lag", "\(lagText(status.lagSeconds)) of audio waiting")
    }
    field("counts", "\(status.playCount) plays, \(status.gapCount) gaps, \(status.overrunCount) overruns")
    if let last = status.lastAudioTime {
      let age = max(0, snapshot.now.timeIntervalSince1970 - last)
      let time = Date(timeIntervalSince1970: last)
      field(
        "last audio",
        clockTime(time, in: snapshot.timeZone) + " " + zoneLabel(snapshot.timeZone, at: time)
          + String(format: " (%.1f s ago)", age))
    }

    lines.append(Line(text: "On air", style: .heading))
    if status.current.isEmpty, let music = status.unknownMusic {
      lines.append(Line(text: "  " + unknownMusicText(music) + ": music that matched nothing in the catalog"))
      lines.append(
        Line(
          text:
            "    since \(clockTime(music.since, in: snapshot.timeZone)) \(zoneLabel(snapshot.timeZone, at: music.since)), "
            + "\(duration(snapshot.now.timeIntervalSince(music.since))) on air"))
    } else if status.current.isEmpty {
      lines.append(Line(text: "  nothing from the catalog", style: .dim))
    }
    for play in status.current {
      lines.append(Line(text: "  " + DisplayWidth.printable(itemText(title: play.title, artist: play.artist))))
      lines.append(
        Line(
          text:
            "    since \(clockTime(play.start, in: snapshot.timeZone)) \(zoneLabel(snapshot.timeZone, at: play.start)), "
            + "\(duration(snapshot.now.timeIntervalSince(play.start))) on air; "
            + "reference from \(duration(play.referenceOffsetSeconds)), now at \(duration(referencePosition(play)))"))
      lines.append(Line(text: String(format: "    speed %.1f %%, confidence %.2f", play.speed * 100, play.confidence)))
    }

    let plays = recentPlays([status])
    let logLines = snapshot.events.filter { $0.channel == status.name || $0.channel == nil }
    let footer = Line(text: "Esc back  Up/Down other channel  q quit", style: .dim)
    // What is left is shared: up to half for the plays, the rest for the log.
    let room = max(0, height - lines.count - 1)
    let playRoom = min(plays.count + 1, max(room / 2, 0))
    if playRoom >= 2 {
      lines.append(Line(text: "Last plays on \(status.name)", style: .heading))
      for play in plays.prefix(playRoom - 1) {
        let length = play.end.map { duration($0.timeIntervalSince(play.start)) } ?? "on air"
        lines.append(
          Line(
            text: "  \(clockTime(play.start, in: snapshot.timeZone))  \(DisplayWidth.fitRight(length, to: 7))  "
              + DisplayWidth.printable(itemText(title: play.title, artist: play.artist))))
      }
    }
    let logRoom = height - lines.count - 1
    if logRoom >= 2 {
      lines.append(Line(text: "Log", style: .heading))
      for event in logLines.suffix(logRoom - 1) {
        let style: Line.Style = [.gap, .overrun, .xrun, .lagging].contains(event.name) ? .warning : .plain
        lines.append(Line(text: "  " + DisplayWidth.printable(event.textLine), style: style))
      }
    }
    while lines.count < height - 1 { lines.append(Line(text: "")) }
    lines.append(footer)
    return lines
  }
}
