import Common
import Foundation
import Matcher
import Reports

/// `broadcast-monitor scan`: every play in a long recording, found by the same streaming matcher that live
/// monitoring runs, fed from the file as fast as it goes.
enum ScanCommand {
  /// How long a scan whose PostgreSQL play log went away waits for it before it leaves the plays in the spool and
  /// exits, when `--outage-wait` does not say: a server restart or a failover takes a minute or two.
  static let defaultOutageWaitSeconds = 300.0

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let a = try CommandLineArguments(args, for: CommandTable.scan)
    guard a.positionals.count == 1 else { throw UsageError(CommandHelp.help(CommandTable.scan)) }
    let recording = a.positionals[0]
    let channel = try a.required("channel")
    if let problem = ChannelConfiguration.nameProblem(channel) {
      throw UsageError("--channel \(channel): \(problem)")  // the name `run` would refuse, so the two logs agree
    }
    // The kinds of catalog plays that get a clip too (as `unknown.catalogPlayClips`).
    let playClipKinds = try a.value("catalog-play-clips").map(Self.playClipKinds) ?? []
    if !playClipKinds.isEmpty && a.value("clips") == nil {
      throw UsageError("--catalog-play-clips needs --clips DIR: the folder the clips go to")
    }
    let catalogPath = try a.required("catalog")
    let inputs = [(role: "the recording", path: recording), (role: "the catalog", path: catalogPath)]
    for option in ["csv", "db"] {
      if let path = a.value(option), !PlayLogLocation.isPostgreSQL(path) {
        try OutputCheck.check(path, option: "--\(option)", inputs: inputs)
      }
    }
    let catalog = try Catalog.load(from: URL(fileURLWithPath: catalogPath))
    let decoder = AudioFileDecoder(ffmpegSampleRate: catalog.parameters.sampleRateHz)
    try CatalogCommand.requireRegularFileIfPresent(recording, for: "scan")
    guard FileManager.default.isReadableFile(atPath: recording) else {
      throw AudioError.unreadable(path: recording, reason: "no such file, or not readable")
    }
    let duration = decoder.probeDurationSeconds(path: recording)
    let origin: Date
    if let text = a.value("start") {
      guard let date = ISO8601Millis.parse(text) else {
        throw UsageError("--start \(text): not an ISO 8601 time such as 2026-01-01T00:00:00Z")
      }
      origin = date
    } else {
      // The file was written as the broadcast went: it ended at its modification time.
      let attributes = try FileManager.default.attributesOfItem(atPath: recording)
      let modified = attributes[.modificationDate] as? Date ?? Date()
      origin = modified.addingTimeInterval(-(duration ?? 0))
      printError(
        "scan \(channel): no --start, so the recording is taken to begin at \(ISO8601Millis.format(origin)) (its "
          + "modification time minus its \(String(format: "%.1f", duration ?? 0)) s of audio); give --start "
          + "ISO8601 for the time it really began")
    }

    // Outputs: the play log first, so that a play is stored the moment it ends. It is locked first and until the
    // scan ends, so that the scan never writes beside a running monitor.
    // A PostgreSQL play log is written as node --node, with the channel claimed.
    let node = a.value("node") ?? PlayLogLocation.hostName
    let outageWaitSeconds =
      try a.value("outage-wait").map { text throws(UsageError) -> Double in
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
          throw UsageError("--outage-wait \(text): not a number of seconds ≥ 0, such as 300")
        }
        return seconds
      } ?? Self.defaultOutageWaitSeconds
    let opened = try a.value("db").map {
      try PlayLogLocation.openForWriting($0, node: node, passwordFile: nil, channels: [channel], command: "scan")
    }
    defer { opened?.lock?.release() }
    // The play log's writer, as the monitor's: a play log that cannot be written keeps the plays in its spool, which
    // the next `run` or `scan --db` on it replays first.
    // Unknown music joins the clusters of the segments already in the play log (any channel, any day).
    let clusters = UnknownClusters(parameters: catalog.parameters)
    let writer = try opened.map { opened in
      let spool = PlayLogLocation.spool(for: opened.store.path, node: node, directory: a.value("spool-dir"))
      try PlayLogWriter.replay(spool, into: opened.store, log: MonitorLog())
      _ = try AirStretchRecorder.restoreClusters(clusters, from: opened.store)
      return PlayLogWriter(store: opened.store, spool: spool, log: MonitorLog())
    }
    let collector = PlayCollector()
    collector.onEnded = { play in
      guard let writer else { return }
      writer.submit(
        .start(token: writer.makeToken(), play: PlayRecord(play, channel: channel, origin: origin, status: .closed)))
    }
    let settings = try a.value("settings").map { try MatcherSettings(contentsOf: URL(fileURLWithPath: $0)) }
    // Clips of the unknown music (and of the catalog plays of --catalog-play-clips' kinds), written off this thread;
    // the scan waits for them before the play log closes.
    let clips = a.value("clips").map {
      UnknownClipWriter(
        directory: $0, settings: UnknownClipSettings(clipsDirectory: $0, catalogPlayClips: playClipKinds),
        sampleRateHz: catalog.parameters.sampleRateHz, log: MonitorLog())
    }
    let recorder = AirStretchRecorder(
      channel: channel, clusters: clusters, writer: writer, clips: clips, log: MonitorLog(), keepsRecords: true
    ) { origin.addingTimeInterval($0) }
    let air = AirWatch(
      parameters: catalog.parameters, stretches: recorder,
      keepingAudioSeconds: clips == nil ? 0 : UnknownClipWriter.ringSeconds)
    air.playAudio = recorder
    air.wantsPlayAudio = { [unowned recorder] in recorder.wantsAudio(of: $0) }
    let matcher = StreamMatcher(
      catalog: catalog, settings: settings ?? MatcherSettings(), sink: collector, air: air)
    let progress = ProgressReporter()
    let started = Date()
    var seconds = 0.0
    // A scan that fails still writes the plays it found (or keeps them in the spool) before it reports the error.
    defer {
      clips?.waitUntilIdle()
      _ = writer?.stop()
    }
    func progressLine() -> String {
      let elapsed = Date().timeIntervalSince(started)
      let total = duration.map { String(format: "/%.0f", $0) } ?? ""
      return String(
        format: "scan %@: %.0f%@ s, %d plays, %.0f× real time", channel, seconds, total, collector.started,
        elapsed > 0 ? seconds / elapsed : 0)
    }
    try decoder.decode(path: recording) { samples, channels, rate in
      try matcher.append(samples, channels: channels, sampleRate: rate)
      seconds += Double(samples.count / channels) / rate
      progress.update(progressLine())
    }
    matcher.flush()
    clips?.waitUntilIdle()
    progress.finish()
    if let writer, let path = a.value("db") {
      if PlayLogLocation.isPostgreSQL(path) && writer.isFailing {
        printError(
          "scan \(channel): the PostgreSQL play log \(path) is unreachable; the plays wait in the spool "
            + "\(writer.spoolPath) for up to \(String(format: "%.0f", outageWaitSeconds)) s (--outage-wait)")
        writer.waitUntilWritten(timeoutSeconds: outageWaitSeconds)
      }
      let leftover = writer.stop()
      if !leftover.isEmpty {
        var text = "broadcast-monitor: scan \(channel): play log \(path) could not be written: "
        if leftover.spooled > 0 {
          text +=
            "\(leftover.spooled) plays are kept in the spool \(writer.spoolPath), and the next `run` or "
            + "`scan --db` on this play log writes them into it first. "
        }
        if !leftover.unspooled.isEmpty {
          text +=
            "PLAYS NOT SAVED: the spool could not be written either (\(leftover.spoolError ?? "")); they "
            + "follow, one per line:\n" + leftover.unspooled.map { "unwritten: \($0)\n" }.joined()
        }
        printError(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        return RunCommand.unwrittenStatus
      }
    }

    let plays = collector.ended.sorted { $0.startSeconds < $1.startSeconds }
    let records = plays.map { PlayRecord($0, channel: channel, origin: origin, status: .closed) }
    if let csvPath = a.value("csv") {
      try writeCSV(records, to: csvPath)
    }
    let elapsed = Date().timeIntervalSince(started)
    let unknown = recorder.recorded.compactMap(\.unknown)
    printError(
      String(
        format: "scan %@: %d plays in %.0f s of audio (%.1f s, %.0f× real time); %d unknown music segments in %d "
          + "clusters", channel, plays.count, seconds, elapsed, elapsed > 0 ? seconds / elapsed : 0, unknown.count,
        Set(unknown.map(\.cluster)).count))
    if a.value("csv") == nil && a.value("db") == nil {
      let out = CSVWriter()
      try writeRows(records, with: out)
      print(out.text, terminator: "")
    }
    return 0
  }

  /// `--catalog-play-clips`: `all`, `none` or a comma-separated list of kinds, as `unknown.catalogPlayClips`.
  static func playClipKinds(_ text: String) throws(UsageError) -> Set<ItemKind> {
    let words = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    do {
      return try UnknownClipSettings.catalogPlayClipKinds(words)
    } catch {
      throw UsageError(
        "--catalog-play-clips \(text): `\(error.word)` is not an item kind; write a list of "
          + "\(UnknownClipSettings.KindWordProblem.kindWords) (such as ad,jingle), `all` or `none`")
    }
  }

  /// `--csv FILE`, written as a report's `--out` is (``ReportOutput``): complete under its name, or not at all.
  static func writeCSV(_ records: [PlayRecord], to path: String) throws {
    let output = try ReportOutput(path: path, pipeDelimited: false)
    try writeRows(records, with: output.sink)
    try output.finish()
  }

  static func writeRows(_ records: [PlayRecord], with sink: some ReportRowSink) throws {
    let format = PlayCSVFormat()
    try sink.writeRow(format.header.map(CSVField.text))
    for r in records { try sink.writeRow(format.row(r)) }
  }
}
