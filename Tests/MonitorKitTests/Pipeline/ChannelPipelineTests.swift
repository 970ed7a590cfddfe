import Foundation
import Matcher
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite(
  "ChannelPipeline", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
final class ChannelPipelineTests {
  /// 2026-03-01T12:00:00Z.
  static let origin = 1_772_366_400.0

  let folder: TemporaryDirectory
  let catalog: Catalog
  let unknown: [Float]
  let a: [Float]
  let b: [Float]
  var dbPath: String { folder.file("plays.sqlite").path }

  init() throws {
    folder = try TemporaryDirectory(prefix: "pipeline")
    let url = folder.file("music.bmcat")
    try CLI.makeCatalog(at: url)
    catalog = try Catalog.load(from: url)
    unknown = try CLI.decode("unknown.ogg")
    a = try CLI.decode("catalog-a.ogg")
    b = try CLI.decode("catalog-b.ogg")
  }

  /// Runs `input` through a pipeline into a fresh play log until the input is exhausted, then finishes it.
  func run(
    _ input: ScriptedInput, retiringLaneLimit: Int = ChannelPipeline.maxRetiringLanes,
    restartSeconds: (quiet: Double, forced: Double) = (
      ChannelPipeline.quietRestartSeconds, ChannelPipeline.forcedRestartSeconds
    ),
    during: ((ChannelPipeline, PlayLogWriter) throws -> Void)? = nil
  ) throws -> (plays: [PlayRecord], log: [String]) {
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let pipeline = ChannelPipeline(
      name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log,
      retiringLaneLimit: retiringLaneLimit, restartSeconds: restartSeconds)
    try during?(pipeline, writer)
    pipeline.finish()
    #expect(writer.stop().isEmpty)
    return (try PlayLogStore(path: dbPath).plays(), log.recentLines)
  }

  @Test("plays are logged with wall-clock times from the input's time stamps")
  func logsPlaysAtWallClockTimes() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    let (plays, _) = try run(input)
    let aStart = Double(unknown.count) / 8000
    let bStart = aStart + Double(a.count) / 8000
    try #require(plays.count == 2, "\(plays)")
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"])
    #expect(plays.allSatisfy { $0.status == .closed && $0.channel == "test-fm" })
    #expect(abs(plays[0].start.timeIntervalSince1970 - (Self.origin + aStart)) <= 1)
    #expect(abs(plays[0].end.timeIntervalSince1970 - (Self.origin + bStart)) <= 1)
    #expect(abs(plays[1].start.timeIntervalSince1970 - (Self.origin + bStart)) <= 1)
    #expect(plays[0].detectedAt > plays[0].start)
    #expect(plays[0].detectedAt.timeIntervalSince(plays[0].start) < 8)
  }

  @Test("unknown music on air is in the channel's status, since its start, with its cluster once it matches one")
  func unknownMusicOnAir() throws {
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    let song = unknown + unknown
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let clusters = UnknownClusters(parameters: catalog.parameters)
    func airing() -> (ChannelPipeline, ScriptedInput) {
      let input = ScriptedInput(segments: [.init(samples: talk + song + talk, startTime: Self.origin)])
      let pipeline = ChannelPipeline(
        name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log,
        clusters: clusters)
      return (pipeline, input)
    }
    func pump(_ pipeline: ChannelPipeline, _ input: ScriptedInput, untilSeconds seconds: Double) {
      while input.deliveredSeconds < seconds && pipeline.pump() {}
    }

    let (first, firstInput) = airing()
    pump(first, firstInput, untilSeconds: 15)
    #expect(first.status.unknownMusic == nil, "talk is not unknown music")
    pump(first, firstInput, untilSeconds: 50)
    let heard = try #require(first.status.unknownMusic, "unknown music on air 30 s into the song")
    #expect(abs(heard.since.timeIntervalSince1970 - (Self.origin + 20)) < 3, "since \(heard.since)")
    #expect(heard.cluster == nil, "never heard before")
    #expect(first.status.current.isEmpty)
    pump(first, firstInput, untilSeconds: 75)
    #expect(first.status.unknownMusic == nil, "talk again")
    first.finish()

    // The song heard before (as a restart restores it from the play log): on air, it shows its cluster.
    let generator = SignatureGenerator(purpose: .query)
    try generator.append(song, sampleRate: 8000)
    let earlier = clusters.assign(generator.signature())
    let (second, secondInput) = airing()
    pump(second, secondInput, untilSeconds: 50)
    let again = try #require(second.status.unknownMusic, "unknown music on air again")
    #expect(again.cluster == earlier.cluster, "the earlier airing's cluster")
    second.finish()
    #expect(second.status.unknownMusic == nil, "nothing on air once the input ended")
    #expect(writer.stop().isEmpty)
  }

  @Test("run keeps an unknown segment's audio as a clip from the channel's own input, its path with the segment")
  func unknownClip() throws {
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    let input = ScriptedInput(segments: [.init(samples: talk + unknown + unknown + talk, startTime: Self.origin)])
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let clipsFolder = folder.file("clips").path
    let clips = UnknownClipWriter(
      directory: clipsFolder, settings: UnknownClipSettings(clipsDirectory: clipsFolder), sampleRateHz: 8000, log: log)
    let pipeline = ChannelPipeline(
      name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log,
      clusters: UnknownClusters(parameters: catalog.parameters), clips: clips)
    pipeline.finish()
    clips.waitUntilIdle()
    #expect(writer.stop().isEmpty)
    let names = try FileManager.default.contentsOfDirectory(atPath: clipsFolder)
    #expect(names.count == 1 && names[0].hasPrefix("test-fm_2026-03-01T12-00-") && names[0].hasSuffix(".opus"))
    let report = try CLI.run(["report", "unknown", "--db", dbPath, "--tz", "UTC"])
    #expect(report.stdout.contains(",test-fm,\(clipsFolder)/\(names.first ?? "?")"), "\(report.stdout)")
  }

  @Test("run keeps the clip of a catalog play of a kind asked for, and proof-of-play lists it with the play")
  func catalogPlayClip() throws {
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    let input = ScriptedInput(segments: [.init(samples: talk + a + talk, startTime: Self.origin)])
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let clipsFolder = folder.file("clips").path
    let clips = UnknownClipWriter(
      directory: clipsFolder, settings: UnknownClipSettings(clipsDirectory: clipsFolder, catalogPlayClips: [.song]),
      sampleRateHz: 8000, log: log)
    let pipeline = ChannelPipeline(
      name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log,
      clusters: UnknownClusters(parameters: catalog.parameters), clips: clips)
    pipeline.finish()
    clips.waitUntilIdle()
    #expect(writer.stop().isEmpty)
    let names = try FileManager.default.contentsOfDirectory(atPath: clipsFolder)
    #expect(names.count == 1 && names[0].hasPrefix("test-fm_2026-03-01T12-00-") && names[0].hasSuffix("_song.opus"))
    let clipSeconds = AudioFileDecoder(ffmpegSampleRate: 8000).probeDurationSeconds(
      path: "\(clipsFolder)/\(names.first ?? "?")")
    let play = try #require(try PlayLogStore(path: dbPath).plays().first)
    #expect(abs((clipSeconds ?? 0) - play.end.timeIntervalSince(play.start)) < 0.1, "the clip holds the whole play")
    let report = try CLI.run(["report", "proof-of-play", "--db", dbPath, "--tz", "UTC", "--kind", "song"])
    #expect(report.stdout.contains(",closed,\(clipsFolder)/\(names.first ?? "?"),0.000"), "\(report.stdout)")

    // Without the kind asked for, no clip.
    clips.update(settings: UnknownClipSettings(clipsDirectory: clipsFolder, catalogPlayClips: [.ad]))
    let again = ScriptedInput(segments: [.init(samples: talk + a + talk, startTime: Self.origin + 3600)])
    let writer2 = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let second = ChannelPipeline(
      name: "test-fm", input: again, catalog: catalog, settings: MatcherSettings(), writer: writer2, log: log,
      clusters: UnknownClusters(parameters: catalog.parameters), clips: clips)
    second.finish()
    clips.waitUntilIdle()
    #expect(writer2.stop().isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: clipsFolder).count == 1)
  }

  @Test("the status shows the play on air while it plays, and neither play nor level once the input has ended")
  func statusAfterTheEnd() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    _ = try run(input) { pipeline, _ in
      while input.deliveredSeconds < aStart + 15 { pipeline.pump() }
      #expect(pipeline.status.current.map(\.title) == ["Armygeddon"])
      #expect(pipeline.status.peakLevelDB > -60)
      while pipeline.pump() {}
      let status = pipeline.status
      #expect(status.input == .ended)
      #expect(status.current.isEmpty, "the ended play is not shown as on air: \(status.current)")
      #expect(status.peakLevelDB == -.infinity)
      #expect(status.playCount == 1)
    }
  }

  @Test("the item on air switches to the next one as soon as its play starts, not when the matcher ends the last")
  func onAirSwitchesAtTheNextStart() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    _ = try run(input) { pipeline, _ in
      while pipeline.status.playCount < 2 && pipeline.pump() {}
      let status = pipeline.status
      #expect(status.playCount == 2)
      #expect(status.current.first?.title == "Chaos God", "\(status.current.map(\.title))")
      #expect(!status.current.contains { $0.title == "Armygeddon" }, "the finished item is not on air")
      // Nor in the last plays: it shows as ended at its last match, before the matcher closes it.
      let finished = try #require(status.recentPlays.first { $0.title == "Armygeddon" })
      let next = try #require(status.recentPlays.first { $0.title == "Chaos God" })
      #expect(next.end == nil)
      let end = try #require(finished.end, "the finished item is not shown on air in the last plays")
      #expect(end <= next.start.addingTimeInterval(1), "\(end) \(next.start)")
    }
  }

  @Test("the run's closing summary counts every play of a run, however many events the log has had since")
  func summaryCountsEveryPlay() throws {
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    let pipeline = ChannelPipeline(
      name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    pipeline.finish()
    // A long run: more events after the plays than the log keeps in memory.
    for index in 0..<600 { log.line("notice \(index)", channel: "test-fm") }
    #expect(writer.stop().isEmpty)
    #expect(
      RunCommand.stoppedSummary([pipeline.status], playLog: dbPath)
        == "broadcast-monitor: stopped; 2 plays recognized in this run. Play log: \(dbPath)")
    let plays = pipeline.status.recentPlays
    #expect(plays.map(\.title) == ["Armygeddon", "Chaos God"], "the console's plays, typed")
    #expect(plays.allSatisfy { $0.end != nil && $0.channel == "test-fm" })
  }

  @Test("a play is in the play log, open, while it is still on air")
  func writesOpenPlayWhileOnAir() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    let (plays, _) = try run(input) { pipeline, writer in
      // Feed up to 15 s into the song, then look at the file from another connection.
      while input.deliveredSeconds < aStart + 15 { pipeline.pump() }
      let deadline = Date().addingTimeInterval(5)
      var open: [PlayRecord] = []
      while open.isEmpty && Date() < deadline {
        open = try PlayLogStore(path: self.dbPath).plays().filter { $0.status == .open }
        Thread.sleep(forTimeInterval: 0.05)
      }
      try #require(open.count == 1, "no open play while the song was on air")
      #expect(open[0].metadata.title == "Armygeddon")
      #expect(open[0].end.timeIntervalSince1970 > Self.origin + aStart + 5)
    }
    #expect(plays.map(\.status) == [.closed])
  }

  @Test("a new segment ends the running play at the last audio heard and records the gap, ended by the reconnect")
  func segmentEndsPlays() throws {
    let cut = unknown.count + a.count / 2
    let resumeAt = Self.origin + 600
    let gap = InputNotice(kind: .gap, startTime: Self.origin + Double(cut) / 8000, detail: "stream dropped")
    let back = InputNotice(kind: .reconnect, startTime: resumeAt, endTime: resumeAt, detail: "audio again")
    let input = ScriptedInput(segments: [
      .init(samples: Array((unknown + a)[..<cut]), startTime: Self.origin),
      .init(samples: b, startTime: resumeAt, notices: [gap, back]),
    ])
    let (plays, log) = try run(input)
    try #require(plays.count == 2, "\(plays)")
    #expect(plays[0].metadata.title == "Armygeddon")
    #expect(plays[0].end.timeIntervalSince1970 <= Self.origin + Double(cut) / 8000 + 0.5)
    #expect(plays[0].end.timeIntervalSince1970 >= Self.origin + Double(cut) / 8000 - 3)
    #expect(plays[1].metadata.title == "Chaos God")
    #expect(abs(plays[1].start.timeIntervalSince1970 - resumeAt) <= 1)
    #expect(log.contains { $0.contains("[test-fm] gap: stream dropped") })
    let events = try Subprocess.run(
      "/usr/bin/sqlite3", [dbPath, "SELECT kind, detail, start_ms, end_ms FROM events ORDER BY id"])
    let gapStart = Int64(((Self.origin + Double(cut) / 8000) * 1000).rounded())
    #expect(
      events.stdout.contains("gap|stream dropped|\(gapStart)|\(Int64(resumeAt * 1000))\n"), "\(events)")
  }

  @Test("the rest of a song heard after a gap continues its play: one row, one play in the status and its count")
  func restAfterGapIsOnePlay() throws {
    let cut = unknown.count + a.count / 2
    let skipped = 5 * 8000
    let resumeAt = Self.origin + Double(cut + skipped) / 8000
    let gap = InputNotice(kind: .gap, startTime: Self.origin + Double(cut) / 8000, detail: "stream dropped")
    let input = ScriptedInput(segments: [
      .init(samples: Array((unknown + a)[..<cut]), startTime: Self.origin),
      .init(samples: Array(a[(cut - unknown.count + skipped)...]) + b, startTime: resumeAt, notices: [gap]),
    ])
    var status: ChannelStatus?
    let (plays, log) = try run(input) { pipeline, _ in
      while pipeline.pump() {}
      status = pipeline.status
    }
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    #expect(log.contains { $0.contains("\"Armygeddon\" continues play") }, "\(log)")
    let shown = try #require(status)
    #expect(shown.playCount == 2, "\(shown.recentPlays)")
    #expect(shown.recentPlays.map(\.title) == ["Armygeddon", "Chaos God"], "\(shown.recentPlays)")
    let first = try #require(plays.first)
    let shownStart = try #require(shown.recentPlays.first?.start)
    #expect(abs(shownStart.timeIntervalSince(first.start)) < 0.001, "the continued play keeps its first part's start")
  }

  /// The `start_ms|end_ms` of the play log's gap rows, oldest first.
  func gapRows() throws -> [String] {
    let events = try Subprocess.run(
      "/usr/bin/sqlite3", [dbPath, "SELECT start_ms, end_ms FROM events WHERE kind = 'gap' ORDER BY id"])
    return events.stdout.split(separator: "\n").map(String.init)
  }

  static func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

  /// A pipeline of "test-fm" whose input reports a gap after `unknown` and ends, finished as a reload finishes the
  /// channel it restarts; returns it and the gap's start.
  func pipelineEndedInGap(writer: PlayLogWriter, log: MonitorLog) -> (ChannelPipeline, gapStart: Double) {
    let gapStart = Self.origin + Double(unknown.count) / 8000
    let before = ScriptedInput(segments: [
      .init(samples: unknown, startTime: Self.origin),
      .init(samples: [], startTime: gapStart, notices: [InputNotice(kind: .gap, startTime: gapStart, detail: "down")]),
    ])
    let earlier = ChannelPipeline(
      name: "test-fm", input: before, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    earlier.finish()
    return (earlier, gapStart)
  }

  @Test("a gap open when a reload restarts the channel ends at the restarted input's first audio")
  func gapOpenAcrossReloadEndsAtFirstAudio() throws {
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let (earlier, gapStart) = pipelineEndedInGap(writer: writer, log: log)
    let backAt = Self.origin + 600
    let pipeline = ChannelPipeline(
      name: "test-fm", input: ScriptedInput(segments: [.init(samples: b, startTime: backAt)]), catalog: catalog,
      settings: MatcherSettings(), writer: writer, log: log)
    pipeline.continueCounts(from: earlier)
    pipeline.finish()
    #expect(writer.stop().isEmpty)
    #expect(try gapRows() == ["\(Self.milliseconds(gapStart))|\(Self.milliseconds(backAt))"])
  }

  @Test("a gap open when a reload restarts the channel ends where the restarted input's own gap begins")
  func gapOpenAcrossReloadEndsAtTheNextGap() throws {
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let (earlier, gapStart) = pipelineEndedInGap(writer: writer, log: log)
    let (downAt, backAt) = (Self.origin + 300, Self.origin + 600)
    let input = ScriptedInput(segments: [
      .init(samples: [], startTime: downAt, notices: [InputNotice(kind: .gap, startTime: downAt, detail: "refused")]),
      .init(
        samples: b, startTime: backAt,
        notices: [InputNotice(kind: .reconnect, startTime: backAt, endTime: backAt, detail: "back")]),
    ])
    input.hold()
    let pipeline = ChannelPipeline(
      name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    pipeline.continueCounts(from: earlier)
    pipeline.pump()  // the new input's gap, before any audio
    input.release()
    pipeline.finish()
    #expect(writer.stop().isEmpty)
    #expect(
      try gapRows() == [
        "\(Self.milliseconds(gapStart))|\(Self.milliseconds(downAt))",
        "\(Self.milliseconds(downAt))|\(Self.milliseconds(backAt))",
      ])
  }

  @Test("a channel stopped while its audio flows records a gap from its last audio, and none while a gap is open")
  func stopRecordsGapFromLastAudio() throws {
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let pipeline = ChannelPipeline(
      name: "test-fm", input: ScriptedInput(segments: [.init(samples: unknown, startTime: Self.origin)]),
      catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    pipeline.finish()
    let stoppedAt = Date(timeIntervalSince1970: Self.origin + 3600)
    pipeline.recordStopped(at: stoppedAt)
    let (inGap, _) = pipelineEndedInGap(writer: writer, log: log)
    inGap.recordStopped(at: stoppedAt)
    #expect(writer.stop().isEmpty)
    let lastAudio = Self.origin + Double(unknown.count) / 8000
    #expect(
      try gapRows() == ["\(Self.milliseconds(lastAudio))|", "\(Self.milliseconds(lastAudio))|"],
      "the stopped channel's gap, then the gap open in the other")
    let details = try Subprocess.run("/usr/bin/sqlite3", [dbPath, "SELECT detail FROM events ORDER BY id"])
    #expect(details.stdout == "broadcast-monitor stopped: not heard until it starts again\ndown\n", "\(details)")
  }

  @Test("a later report of the same outage is a log line only: one gap in the play log and in the counts")
  func repeatedGapReportIsLoggedOnly() throws {
    let cut = unknown.count
    let since = Self.origin + Double(cut) / 8000
    let first = InputNotice(kind: .gap, startTime: since, detail: "stream dropped")
    let again = InputNotice(kind: .gap, startTime: since, detail: "still no audio after 2 attempts", recorded: false)
    let input = ScriptedInput(segments: [
      .init(samples: unknown, startTime: Self.origin),
      .init(samples: b, startTime: Self.origin + 600, notices: [first, again]),
    ])
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let pipeline = ChannelPipeline(
      name: "test-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    pipeline.finish()
    #expect(writer.stop().isEmpty)
    #expect(pipeline.status.gapCount == 1)
    #expect(log.recentLines.contains { $0.contains("gap: still no audio after 2 attempts") }, "\(log.recentLines)")
    let events = try Subprocess.run("/usr/bin/sqlite3", [dbPath, "SELECT detail FROM events WHERE kind = 'gap'"])
    #expect(events.stdout == "stream dropped\n", "\(events)")
  }

  @Test("a catalog reload in the middle of a song keeps it one play")
  func reloadKeepsRunningPlay() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    let (plays, log) = try run(input) { pipeline, _ in
      while input.deliveredSeconds < aStart + 12 { pipeline.pump() }
      pipeline.reload(catalog: self.catalog)
    }
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    #expect(log.contains { $0.contains("catalog reloaded") })
  }

  @Test("two catalog reloads in the middle of a song keep it one play: never ended and continued")
  func reloadsKeepRunningPlay() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    let (plays, log) = try run(input) { pipeline, _ in
      while input.deliveredSeconds < aStart + 12 { pipeline.pump() }
      pipeline.reload(catalog: self.catalog)
      while input.deliveredSeconds < aStart + 16 { pipeline.pump() }
      pipeline.reload(catalog: self.catalog)
    }
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    let reloads = log.filter { $0.contains("catalog reloaded") }
    #expect(reloads.count == 2, "\(log)")
    #expect(reloads.allSatisfy { $0.contains("running plays finish on the previous catalog") }, "\(reloads)")
    #expect(log.filter { $0.contains("play ended: \"Armygeddon\"") }.count == 1, "\(log)")
    #expect(!log.contains { $0.contains("continues play") }, "\(log)")
  }

  @Test("a reload beyond the bound of retiring lanes ends the oldest lane's play with a warning, logged once")
  func retiringLaneBound() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    var during: ChannelStatus?
    let (plays, log) = try run(input, retiringLaneLimit: 0) { pipeline, _ in
      while input.deliveredSeconds < aStart + 12 { pipeline.pump() }
      pipeline.reload(catalog: self.catalog)
      while input.deliveredSeconds < aStart + 22 { pipeline.pump() }
      during = pipeline.status
    }
    #expect(
      log.contains {
        $0.contains("catalog reloaded again before the plays of the catalog 1 reloads ago ended: they end now")
      }, "\(log)")
    #expect(log.contains { $0.contains("play ended: \"Armygeddon\"") }, "ended at the reload: \(log)")
    // The new catalog finds the rest of the song on the same line: the play log's rule continues the play.
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    #expect(log.contains { $0.contains("\"Armygeddon\" continues play") }, "\(log)")
    #expect(during?.playCount == 1, "counted once: \(String(describing: during?.recentPlays))")
  }

  @Test(
    "after a week of unbroken audio the matcher starts afresh at the first moment no play runs: each play once, at its times"
  )
  func quietRestart() throws {
    // A "week" of 35 s: it passes 15 s into the first song, and the restart waits for the unknown music after it.
    let input = ScriptedInput(segments: [.init(samples: unknown + a + unknown + b, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    let aEnd = aStart + Double(a.count) / 8000
    let bStart = aEnd + Double(unknown.count) / 8000
    let (plays, log) = try run(input, restartSeconds: (quiet: 35, forced: .infinity))
    try #require(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    #expect(abs(plays[0].start.timeIntervalSince1970 - (Self.origin + aStart)) <= 1)
    #expect(abs(plays[0].end.timeIntervalSince1970 - (Self.origin + aEnd)) <= 1)
    #expect(abs(plays[1].start.timeIntervalSince1970 - (Self.origin + bStart)) <= 1)
    let restarts = log.indices.filter { log[$0].contains("the matcher starts afresh") }
    try #require(restarts.count == 1, "\(log)")
    #expect(log[restarts[0]].contains("at a moment no play runs"), "\(log)")
    let aEnded = try #require(log.firstIndex { $0.contains("play ended: \"Armygeddon\"") })
    let bStarted = try #require(log.firstIndex { $0.contains("play started: \"Chaos God\"") })
    #expect(aEnded < restarts[0] && restarts[0] < bStarted, "\(log)")
    #expect(!log.contains { $0.contains("continues play") }, "\(log)")
  }

  @Test(
    "after four weeks without a moment free of plays the matcher starts afresh anyway: the song on air stays one play"
  )
  func forcedRestart() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a + b, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    let aEnd = aStart + Double(a.count) / 8000
    let (plays, log) = try run(input, restartSeconds: (quiet: 35, forced: 35))
    try #require(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    #expect(abs(plays[0].start.timeIntervalSince1970 - (Self.origin + aStart)) <= 1)
    #expect(abs(plays[0].end.timeIntervalSince1970 - (Self.origin + aEnd)) <= 1)
    #expect(log.contains { $0.contains("without a moment free of plays") }, "\(log)")
    #expect(log.contains { $0.contains("\"Armygeddon\" continues play") }, "\(log)")
  }

  @Test("the status shows the input, the matcher state and the play on air")
  func status() throws {
    let input = ScriptedInput(segments: [.init(samples: unknown + a, startTime: Self.origin)])
    let aStart = Double(unknown.count) / 8000
    _ = try run(input) { pipeline, _ in
      while input.deliveredSeconds < aStart + 15 { pipeline.pump() }
      let status = pipeline.status
      #expect(status.name == "test-fm")
      #expect(status.input == .running)
      #expect(status.matcher == .matching)
      #expect(status.current.map(\.title) == ["Armygeddon"])
      #expect(status.playCount == 1)
      #expect(status.peakLevelDB > -40 && status.peakLevelDB < 6, "decoded Vorbis can peak a little above full scale")
      let heard = try #require(status.lastAudioTime)
      #expect(abs(heard - (Self.origin + input.deliveredSeconds)) < 0.01)
    }
  }

  /// Waits until `find` returns something, or `seconds` have passed (nil).
  func wait<T>(seconds: Double, for find: () -> T?) -> T? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let found = find() { return found }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return find()
  }

  /// A file channel played at real-time pace whose worker takes `secondsPerRead` over each 0.1 s chunk, pumped by a
  /// worker pool of its own as `run` pumps its channels.
  func slowFileChannel(secondsPerRead: Double, ringSeconds: Double = 30) throws
    -> (input: SlowInput, pipeline: ChannelPipeline, log: MonitorLog, writer: PlayLogWriter)
  {
    let file = try StreamInput(
      filePath: Fixtures.music("catalog-a.ogg").path, loop: true, sampleRate: 8000, ringSeconds: ringSeconds)
    let input = SlowInput(file, secondsPerRead: secondsPerRead)
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let pipeline = ChannelPipeline(
      name: "slow-fm", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log,
      bufferFrames: 800)
    return (input, pipeline, log, writer)
  }

  @Test("a channel whose worker falls behind real time reports lagging once, with its lag, then catching up")
  func lagging() throws {
    // 0.3 s for each 0.1 s of audio: the lag grows by about 0.67 s a second.
    let (input, pipeline, log, writer) = try slowFileChannel(secondsPerRead: 0.3)
    let started = Date()
    try input.start()
    let workers = WorkerPool(threads: 1, pipelines: [pipeline])
    defer { input.stop() }

    let lagging = wait(seconds: 30) { log.recentEvents.first { $0.name == .lagging } }
    let reported = Date()
    try #require(lagging != nil, "no lagging event in 30 s; status \(pipeline.status)")
    guard case .number(let lag)? = lagging?.field("lag_s"), case .time(let since)? = lagging?.field("start") else {
      Issue.record("fields \(lagging?.fields ?? [])")
      return
    }
    #expect(lag >= LagTracker.lagThresholdSeconds, "lag \(lag) s")
    #expect(lag <= reported.timeIntervalSince(started), "more behind than the audio that came: \(lag) s")
    #expect(since > started && since <= reported.addingTimeInterval(-LagTracker.holdSeconds + 0.1))
    #expect(lagging?.jsonLine.contains(#""event":"lagging""#) == true)
    #expect(lagging?.textLine.contains("[slow-fm] lagging: the matcher is") == true)
    let status = pipeline.status
    #expect(status.laggingSince != nil)
    #expect(status.lagSeconds >= LagTracker.caughtUpSeconds, "status lag \(status.lagSeconds) s")

    // The worker is as fast as it is again: the channel analyses the waiting audio and catches up.
    input.secondsPerRead = 0
    let caughtUp = wait(seconds: 30) { log.recentEvents.first { $0.name == .caughtUp } }
    try #require(caughtUp != nil, "no caught_up event in 30 s; status \(pipeline.status)")
    if case .number(let most)? = caughtUp?.field("max_lag_s") {
      #expect(most >= lag, "at most \(most) s behind, but \(lag) s when reported")
    } else {
      Issue.record("fields \(caughtUp?.fields ?? [])")
    }
    #expect(caughtUp?.field("start") == .time(since))
    #expect(pipeline.status.laggingSince == nil)
    #expect(pipeline.status.lagSeconds < LagTracker.caughtUpSeconds)
    #expect(log.recentEvents.filter { $0.name == .lagging }.count == 1, "\(log.recentLines)")

    input.stop()
    workers.stop()
    #expect(writer.stop().isEmpty)
    let events = try Subprocess.run(
      "/usr/bin/sqlite3", [dbPath, "SELECT kind, detail FROM events WHERE kind = 'lagging' ORDER BY id"])
    #expect(events.stdout.contains("lagging|the matcher fell behind real time by up to"), "\(events)")
    #expect(events.stdout.split(separator: "\n").count == 1, "\(events)")
  }

  @Test("a worker stuck in one slow chunk is reported lagging while it is stuck, and caught up once it is through")
  func laggingWhileStuck() throws {
    let (input, pipeline, log, writer) = try slowFileChannel(secondsPerRead: 8)
    try input.start()
    let workers = WorkerPool(threads: 1, pipelines: [pipeline])
    defer { input.stop() }

    let lagging = wait(seconds: 30) { log.recentEvents.first { $0.name == .lagging } }
    try #require(lagging != nil, "no lagging event in 30 s; status \(pipeline.status)")
    #expect(input.chunksReturned == 0, "reported while the worker was still in its first chunk")
    #expect(pipeline.status.laggingSince != nil)
    #expect(pipeline.status.lagSeconds >= LagTracker.lagThresholdSeconds)
    input.secondsPerRead = 0
    let caughtUp = wait(seconds: 30) { log.recentEvents.first { $0.name == .caughtUp } }
    #expect(caughtUp != nil, "no caught_up event in 30 s; status \(pipeline.status)")
    #expect(input.chunksReturned > 0)

    input.stop()
    workers.stop()
    #expect(writer.stop().isEmpty)
  }

  @Test("an overrun is reported while the channel runs, within about a second of the dropped audio")
  func overrunWhileRunning() throws {
    // A ring of about 1 s, and 0.5 s for each 0.1 s of audio: the ring fills within 2 s and audio is dropped.
    let (input, pipeline, log, writer) = try slowFileChannel(secondsPerRead: 0.5, ringSeconds: 1)
    try input.start()
    let workers = WorkerPool(threads: 1, pipelines: [pipeline])
    defer { input.stop() }

    let overrun = wait(seconds: 30) { log.recentEvents.first { $0.name == .overrun } }
    try #require(overrun != nil, "no overrun reported in 30 s; status \(pipeline.status)")
    #expect(input.status == .running, "reported while the channel runs")
    if case .time(let end)? = overrun?.field("end"), let logged = overrun?.time {
      #expect(
        logged.timeIntervalSince(end) < 1.5,
        "dropped audio ending at \(end) reported \(logged.timeIntervalSince(end)) s later")
    } else {
      Issue.record("fields \(overrun?.fields ?? [])")
    }
    #expect(pipeline.status.overrunCount >= 1)

    input.stop()
    workers.stop()
    #expect(writer.stop().isEmpty)
  }
}
