import Foundation
import Reports

/// `report soundexchange`: one Report of Use per service, with the audience figures the station has.
extension ReportCommand {
  /// Writes the report of each service the selected channels belong to: to `--out` or standard output when there
  /// is one, or into `--out-dir` under SoundExchange's file names. Says on stderr where each service's
  /// performances came from and which items' ISRCs are not ISRCs.
  static func writeSoundExchange(
    _ a: CommandLineArguments, scope: ReportScope, settings: ReportSettings, reader: PlayLogReader,
    progress: ProgressReporter
  ) throws {
    guard let soundExchange = settings.soundExchange else {
      throw ReportError.missingSetting(
        key: "reports.soundExchange",
        example: "soundExchange: {serviceName: \"Example FM\", transmissionCategory: \"B\"}")
    }
    let pipe = a.value("format") == "pipe"
    let channels = try scope.channels(in: reader)
    let channelNames = channels.map(\.name)

    // Each channel's audience: listeners from Icecast's log, else those `run` sampled from Icecast's stats into the
    // play log, else the hourly figures, else listenersPerPlay.
    var audience: [String: any AudienceFigure] = [:]
    if let path = a.value("audience") {
      let hourly = try HourlyAudienceFile.read(path: path)
      for name in channelNames { audience[name] = hourly[name] ?? audience[name] }
    }
    for channel in channels where channel.fromMilliseconds < channel.toMilliseconds {
      let samples = try reader.listenerSamples(
        channelID: channel.id, fromMilliseconds: channel.fromMilliseconds, toMilliseconds: channel.toMilliseconds)
      guard !samples.isEmpty else { continue }
      audience[channel.name] = ListenerSamples(
        samples, source: "listeners sampled from Icecast's stats (\(samples.count) samples in the play log)")
    }
    if let path = a.value("icecast-log") {
      let mounts = try IcecastAccessLog.read(path: path)
      for name in channelNames {
        let mount = soundExchange.icecastMount(of: name)
        if let sessions = mounts[mount] {
          audience[name] = sessions
        } else if soundExchange.channels[name]?.icecastMount != nil {
          // A configured mount with no listener in the log had none.
          audience[name] = ListenerSessions([], source: "listeners on \(mount) in the Icecast access log \(path)")
        }
      }
    }

    var services = Dictionary(grouping: channelNames, by: soundExchange.serviceName(of:))
    // A play log without the channels still gets a report: the header alone.
    if services.isEmpty { services[soundExchange.serviceName] = [] }
    let outDirectory = a.value("out-dir")
    if services.count > 1 && outDirectory == nil {
      throw UsageError(
        "the channels belong to \(services.count) services (\(services.keys.sorted().joined(separator: ", "))), "
          + "and SoundExchange takes one Report of Use per service: give --out-dir DIR for one file each, or "
          + "--channel NAME")
    }
    for (service, names) in services.sorted(by: { $0.key < $1.key }) {
      let started = Date()
      let report = SoundExchangeReport(
        scope: scope, serviceName: service, transmissionCategory: soundExchange.transmissionCategory,
        audiencePerPlay: soundExchange.listenersPerPlay, channels: Set(names), audience: audience)
      var path = a.value("out")
      if let outDirectory {
        guard let days = try report.reportingDays(in: reader) else { continue }
        path =
          URL(fileURLWithPath: outDirectory).appendingPathComponent(
            SoundExchangeReport.fileName(
              serviceName: service, transmissionCategory: soundExchange.transmissionCategory, firstDay: days.first,
              lastDay: days.last, fileExtension: pipe ? "txt" : "csv")
          ).path
      }
      let output = try ReportOutput(path: path, pipeDelimited: pipe)
      let summary = try report.write(from: reader, to: output.sink) { fraction in
        progress.update(String(format: "report soundexchange %@: %.0f %%", service, fraction * 100))
      }
      try output.finish()
      progress.finish()
      printError(
        String(
          format: "report soundexchange: %@: %d rows written to %@ in %.1f s", service, output.rows - 1,
          path ?? "stdout", Date().timeIntervalSince(started)))
      for line in Self.describe(summary) { printError("report soundexchange: \(service): \(line)") }
    }
  }

  /// The summary's lines: where the performances came from, then the plays and ISRCs that need a look.
  static func describe(_ summary: SoundExchangeReport.Summary) -> [String] {
    var lines: [String] = []
    let sources = summary.sources.sorted { $0.key < $1.key }
    if summary.actualPerformances {
      lines.append(
        "ACTUAL_TOTAL_PERFORMANCES from "
          + sources.map { "\($0.value ?? "") (\($0.key))" }.joined(separator: "; "))
    } else {
      let missing = sources.filter { $0.value == nil }.map(\.key)
      lines.append(
        "PLAY_FREQUENCY (plays, no audience figure for \(missing.joined(separator: ", "))): give "
          + "reports.soundExchange.listenersPerPlay, --audience FILE (channel,hour_start,aqh), --icecast-log FILE, "
          + "or a channel's icecastStatsURL for run to sample, for ACTUAL_TOTAL_PERFORMANCES")
    }
    if summary.playsWithoutFigure > 0 {
      lines.append(
        "\(summary.playsWithoutFigure) plays fall in hours the audience file has no figure for; they add no "
          + "performances: add those hours to the file")
    }
    for (item, isrc) in summary.invalidISRCs {
      lines.append(
        "item \(item.key) (\"\(item.metadata.title)\" by \(item.metadata.artist)) has ISRC \"\(isrc)\", which is not 12 characters "
          + "(2 letters, 3 letters or digits, 7 digits) even without hyphens; the ISRC column is left empty, so "
          + "album and label identify it: correct it in the catalog metadata")
    }
    for item in summary.unidentified {
      let missing = [
        item.metadata.isrc.isEmpty ? "ISRC" : "valid ISRC", item.metadata.album.isEmpty ? "album" : nil,
        item.metadata.label.isEmpty ? "label" : nil,
      ].compactMap { $0 }
      lines.append(
        "item \(item.key) (\"\(item.metadata.title)\" by \(item.metadata.artist)) has no \(missing.joined(separator: ", ")); "
          + "SoundExchange identifies a recording by its ISRC or, without one, by its album and label together, so "
          + "its row does not identify it: add them to the catalog metadata")
    }
    return lines
  }
}
