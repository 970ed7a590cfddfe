import Foundation
import Matcher
import Reports
import Synchronization

/// One channel, from its input to the play log: reads the input's mono audio, feeds the channel's streaming matcher,
/// and hands the matcher's plays (with wall-clock times) to the play-log writer.
///
/// Stages: `ChannelInput` (JACK rings, a stream, a file) → `StreamMatcher` (resampling to the fingerprint rate with
/// libsoxr, peaks, hashes, votes, plays) → `PlayEventSink` (plays to commands, stream time to wall-clock time) →
/// `PlayLogWriter` (SQLite). Beside the matcher, its `AirWatch` labels the air and an `AirStretchRecorder` logs the
/// stretches and the unknown music (clustered across channels by the monitor's `UnknownClusters`).
///
/// A channel whose matcher falls behind real time is reported at once: a `lagging` event when the audio waiting in
/// its input has stayed above a threshold, a `caught_up` event when it is analysed again as it comes (`LagTracker`
/// says how it is measured), and the lag is part of `status`. The lag is watched from another thread than the
/// channel's worker (`watchLag()`, which `WorkerPool` calls a few times a second), so that a worker stuck in a slow
/// chunk is reported too. So that the input's notices (overruns among them) and the status are handled within about
/// a second even when the matcher is slower than real time, a pump feeds the matcher for at most `pumpSeconds`, in
/// chunks of at most `chunkSeconds` (and at least one chunk).
///
/// A discontinuity in the input (a reconnect, a JACK server restart) ends the segment: running plays end at the last
/// audio heard, and the matcher starts afresh on the new segment; so does a week of unbroken audio, at a moment
/// nothing is on the air that a restart would cut (`quietRestartSeconds`). A catalog reload (`reload(catalog:)`)
/// keeps the old matcher running on the same audio until its running plays end, while a new matcher on the new
/// catalog takes every new play: no play is cut or logged twice by a reload, nor by several within one play.
///
/// Threads: `pump()` and `finish()` from the one worker thread that owns the channel; `reload(catalog:)`,
/// `watchLag()` and `status` from any thread.
final class ChannelPipeline: @unchecked Sendable {
  /// A matcher with its sink and the stream time it has been fed.
  private struct Lane {
    var matcher: StreamMatcher
    var sink: PlayEventSink
    /// Logs the stretches the matcher's air watch closes (nil without unknown-music clustering).
    var recorder: AirStretchRecorder?
    var streamSeconds: Double = 0
  }

  /// A retiring lane as a new lane's sink sees it (`startReload`): weakly, so that a lane's catalog is freed once its
  /// plays end.
  private struct RetiringLane {
    weak var matcher: StreamMatcher?
    weak var sink: PlayEventSink?
  }

  let name: String
  let input: any ChannelInput
  let settings: MatcherSettings
  private let writer: PlayLogWriter
  private let log: MonitorLog
  private let clusters: UnknownClusters?
  private let clips: UnknownClipWriter?
  private var lane: Lane
  /// Lanes of earlier catalogs whose plays still run, oldest first (more than one after reloads within one song).
  private var retiring: [Lane] = []
  /// Retiring lanes kept at most. Each holds its catalog (the monitor's own copy: 4.7 GB at 10,000 hours), so
  /// reloads sent faster than plays end must not pile them up. A lane is kept only while a play it logged runs, so
  /// reloads during one song keep one; two also cover a play that began on the catalog in between. Beyond this many,
  /// the oldest one's plays end at once, as at a stop, and the log says so.
  static let maxRetiringLanes = 2
  /// This pipeline's bound: `maxRetiringLanes` but in tests.
  private let retiringLaneLimit: Int
  /// Unbroken audio after which the matcher starts afresh, at the first moment no play runs on it, no catalog reload
  /// is finishing one and no unknown music is on the air (as after a gap, with nothing to end). A matcher counts its
  /// stream's spectrogram frames, 31.25 a second, in `Int32`: a stream of 795 days would overflow it, and one of
  /// 397 days where two frames are added. A week keeps them far from both, and every station has a quiet moment in
  /// a week (news, talk, an ad outside the catalog).
  static let quietRestartSeconds = 7 * 86_400.0
  /// Unbroken audio after which the matcher starts afresh even while a play runs: that play ends at its last match,
  /// and the rest of the song heard after the restart continues it (`PlayHistory`), as after a short gap.
  static let forcedRestartSeconds = 28 * 86_400.0
  /// This pipeline's `quietRestartSeconds` and `forcedRestartSeconds`: those but in tests.
  private let restartSeconds: (quiet: Double, forced: Double)
  private let buffer: UnsafeMutableBufferPointer<Float>
  private var segment: Int?
  private var segmentEnd: Double?
  private let pendingCatalog = Mutex<Catalog?>(nil)
  private let snapshot: Mutex<ChannelStatus>
  /// The channel's plays, shared by every lane's sink across catalog reloads. Worker thread.
  private let history = PlayHistory()
  /// Chunks read per `pump()` at most, so that one busy channel cannot starve the others on its worker.
  private let chunksPerPump = 16
  /// A pump reads no further chunk after this long: the notices and the status are handled at least this often
  /// (plus the time one chunk takes), however slow the matcher is. Short against the second within which an overrun
  /// should be reported; long against the few microseconds handling them costs.
  static let pumpSeconds = 0.2
  /// A chunk holds at most this much audio (a stream's 8192-frame buffer would hold 1 s at 8 kHz), so that a
  /// matcher several times slower than real time still finishes a pump within a second or so.
  static let chunkSeconds = 0.25
  /// Frames per chunk at the rate of the last chunk (the whole buffer before the first). Worker thread.
  private var chunkFrames: Int
  /// Whether the matcher keeps up; `watchLag()` observes it.
  private let lag = Mutex(LagTracker())
  /// The level meter. Worker thread.
  private var meter = LevelMeter()
  /// The level second by second (see `LevelHistory`). Worker thread.
  private var levels = LevelHistory()
  /// The start of the gap recorded in the play log without an end, until the audio comes back and gives it one.
  /// Worker thread.
  private var openGapStart: Date?
  /// Whether `openGapStart` is the gap of the pipeline that a reload replaced (`continueCounts(from:)`). This input
  /// never reported that gap and sends no reconnect for it, so its first audio ends it; so does a gap of its own,
  /// which takes over from there.
  private var gapEndsAtFirstAudio = false

  init(
    name: String, input: any ChannelInput, catalog: Catalog, settings: MatcherSettings, writer: PlayLogWriter,
    log: MonitorLog, bufferFrames: Int = 8192, clusters: UnknownClusters? = nil, clips: UnknownClipWriter? = nil,
    retiringLaneLimit: Int = maxRetiringLanes,
    restartSeconds: (quiet: Double, forced: Double) = (quietRestartSeconds, forcedRestartSeconds)
  ) {
    self.clips = clips
    self.retiringLaneLimit = retiringLaneLimit
    self.restartSeconds = restartSeconds
    self.name = name
    self.input = input
    self.settings = settings
    self.writer = writer
    self.log = log
    self.clusters = clusters
    lane = Self.makeLane(
      channel: name, catalog: catalog, settings: settings, writer: writer, log: log, history: history,
      clusters: clusters, clips: clips)
    buffer = .allocate(capacity: bufferFrames)
    chunkFrames = bufferFrames
    buffer.initialize(repeating: 0)
    snapshot = Mutex(ChannelStatus(name: name, source: input.sourceDescription))
  }

  deinit { buffer.deallocate() }

  private static func makeLane(
    channel: String, catalog: Catalog, settings: MatcherSettings, writer: PlayLogWriter, log: MonitorLog,
    history: PlayHistory, clusters: UnknownClusters?, clips: UnknownClipWriter?
  ) -> Lane {
    let sink = PlayEventSink(channel: channel, writer: writer, log: log, clock: StreamClock())
    sink.history = history
    let recorder = clusters.map { clusters in
      AirStretchRecorder(channel: channel, clusters: clusters, writer: writer, clips: clips, log: log) {
        [unowned sink] in sink.clock.date(atStream: $0)
      }
    }
    let air = recorder.map { recorder in
      let air = AirWatch(
        parameters: catalog.parameters, stretches: recorder,
        keepingAudioSeconds: clips == nil ? 0 : UnknownClipWriter.ringSeconds)
      // The clips of catalog plays (`unknown.catalogPlayClips`), from the same ring.
      air.playAudio = recorder
      air.wantsPlayAudio = { [unowned recorder] in recorder.wantsAudio(of: $0) }
      return air
    }
    if let clusters { air?.identifyCluster = { clusters.identify($0) } }
    return Lane(
      matcher: StreamMatcher(catalog: catalog, settings: settings, sink: sink, air: air), sink: sink,
      recorder: recorder)
  }

  /// The channel as it is now. Any thread.
  var status: ChannelStatus { snapshot.withLock { $0 } }

  /// When the pipeline was made: through when the channel counts as heard before its first audio.
  private let madeAt = Date()

  /// Through when the channel was heard (the end of the newest audio consumed, or when the pipeline was made before
  /// any), for the play log's heartbeat; nil once its input has ended (a file played to its end, or a stop: the
  /// channel is not listened to any more). Any thread.
  var heartbeat: ChannelHeartbeat? {
    let status = self.status
    guard status.input != .ended else { return nil }
    return ChannelHeartbeat(
      channel: name, heardThrough: status.lastAudioTime.map { Date(timeIntervalSince1970: $0) } ?? madeAt)
  }

  /// Continues the counts and the recent plays of `earlier`, this channel's pipeline before a reload restarted it
  /// (finished), so that the status counts since the monitor started: the metrics' counters never go down. Control
  /// thread, before the input starts.
  func continueCounts(from earlier: ChannelPipeline) {
    history.continuing(earlier.history)
    openGapStart = earlier.openGapStart
    gapEndsAtFirstAudio = openGapStart != nil
    let counted = earlier.status
    snapshot.withLock {
      $0.playCount = history.startedCount
      $0.recentPlays = history.recent
      $0.gapCount = counted.gapCount
      $0.overrunCount = counted.overrunCount
      $0.reconnectCount = counted.reconnectCount
    }
  }

  /// Switches to `catalog` at the next `pump()`, keeping running plays. Any thread.
  func reload(catalog: Catalog) {
    pendingCatalog.withLock { $0 = catalog }
  }

  /// Consumes what the input has; returns false when there was nothing to do. Worker thread.
  @discardableResult
  func pump() -> Bool {
    if let catalog = pendingCatalog.withLock({ value -> Catalog? in
      defer { value = nil }
      return value
    }) {
      startReload(catalog)
    }
    var level: Float = -.infinity
    var chunks = consume(maxChunks: chunksPerPump, forSeconds: Self.pumpSeconds, level: &level)
    // After the audio that came before it: a gap (the source went away) or the end of a file ends the running
    // plays at the last audio heard, instead of leaving them open until the source returns.
    let (noticed, gap) = handleNotices()
    let ended = input.status == .ended && segment != nil
    if gap || ended {
      chunks += consume(maxChunks: .max, forSeconds: .infinity, level: &level)
      if lane.matcher.state != .idle || !retiring.isEmpty { endSegment() }
      if ended { segment = nil }
      // No audio now: the status must not show the ended plays or the last level as current.
      updateStatus(level: -.infinity)
      return true
    }
    let worked = chunks > 0 || noticed
    if worked { updateStatus(level: chunks > 0 ? level : nil) }
    return worked
  }

  /// Reads and feeds up to `maxChunks` chunks, starting no new one after `seconds`; returns how many there were.
  private func consume(maxChunks: Int, forSeconds seconds: Double, level: inout Float) -> Int {
    let start = DispatchTime.now().uptimeNanoseconds
    var chunks = 0
    while chunks < maxChunks, chunks == 0 || Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds,
      let chunk = input.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<chunkFrames]))
    {
      chunkFrames = min(buffer.count, max(1, Int(chunk.sampleRate * Self.chunkSeconds)))
      chunks += 1
      if gapEndsAtFirstAudio { endOpenGap(at: Date(timeIntervalSince1970: chunk.startTime)) }
      if chunk.segment != segment {
        if segment != nil { endSegment() }
        segment = chunk.segment
      }
      let samples = UnsafeBufferPointer(rebasing: buffer[0..<chunk.frames])
      feed(&lane, samples, chunk)
      // The input's level, before any resampling.
      level = max(level, levels.add(samples, sampleRate: chunk.sampleRate, at: chunk.startTime))
      for index in retiring.indices { feed(&retiring[index], samples, chunk) }
      retiring.removeAll { !$0.sink.hasOpenPlays }
      segmentEnd = chunk.startTime + Double(chunk.frames) / chunk.sampleRate
      restartLongSegment()
    }
    return chunks
  }

  /// Starts the matcher afresh once the segment has run `restartSeconds.quiet` and nothing is on the air that a
  /// restart would cut, or `restartSeconds.forced` whatever is (their docs say why).
  private func restartLongSegment() {
    let seconds = lane.streamSeconds
    guard seconds >= restartSeconds.quiet else { return }
    let quiet = lane.matcher.state != .matching && retiring.isEmpty && lane.matcher.air?.unknownMusicOnAir == nil
    guard quiet || seconds >= restartSeconds.forced else { return }
    let days = String(format: "%.1f", seconds / 86_400)
    log.line(
      quiet
        ? "the matcher starts afresh after \(days) days of unbroken audio, at a moment no play runs"
        : "the matcher starts afresh after \(days) days of unbroken audio, without a moment free of plays: "
          + "the play on air ends at its last match, and the rest of it continues that play",
      channel: name)
    endSegment()
  }

  /// Ends the channel: consumes what is left, then every running play ends at the last audio heard. Worker thread
  /// (or the control thread once the workers have stopped).
  func finish() {
    while pump() {}
    endSegment()
    updateStatus(level: nil)
    let change = lag.withLock { $0.finish(at: Date().timeIntervalSince1970) }
    if case .caughtUp(let since, let until, let most, _)? = change {
      recordLagging(from: since, to: until, maxLagSeconds: most, stillBehind: true)
    }
    snapshot.withLock { $0.laggingSince = nil }
  }

  /// What the gap a stop records says (`recordStopped`).
  static let stoppedDetail = "broadcast-monitor stopped: not heard until it starts again"
  /// What the gap of a channel a reload removed says (`recordStopped`).
  static let removedDetail = "removed from the configuration: not heard until a configuration lists it again"

  /// Records that the channel is not heard from the end of its last audio (or from `time`, when it had none), as the
  /// monitor stops (or a reload removes the channel; `detail` says which): a gap without an end, which the next start
  /// that listens to the channel gives its end (`PlayLogStorage.recoverDowntime`), or a reload that adds it back
  /// (`continueGap(from:)`), so that `reconcile` calls a spot of the downtime unmonitored, not missed. A gap already
  /// open covers it. Control thread, after `finish()`.
  /// - Returns: the start of the channel's open gap: this one, or the one that covers it.
  @discardableResult
  func recordStopped(at time: Date, detail: String = stoppedDetail) -> Date {
    if let openGapStart { return openGapStart }
    let lastAudio = segmentEnd.map { Date(timeIntervalSince1970: $0) } ?? time
    let start = min(lastAudio, time)
    writer.submit(.event(channel: name, kind: .gap, start: start, end: nil, detail: detail))
    openGapStart = start
    return start
  }

  /// Takes over the channel's gap that opened at `start` when a reload removed it (`recordStopped`), now that a
  /// reload adds it back: this input's first audio ends it, or its own first gap, which takes over from there.
  /// Control thread, before the input starts.
  func continueGap(from start: Date) {
    openGapStart = start
    gapEndsAtFirstAudio = true
  }

  /// Notes the audio waiting in the input, and reports when the channel falls behind or catches up. Any thread, one
  /// at a time (`WorkerPool`'s watch thread calls it every `WorkerPool.watchSeconds`).
  func watchLag() {
    let waiting = input.backlogSeconds
    let (change, laggingSince) = lag.withLock { tracker in
      (tracker.observe(lagSeconds: waiting, at: Date().timeIntervalSince1970), tracker.laggingSince)
    }
    let since = laggingSince.map { Date(timeIntervalSince1970: $0) }
    snapshot.withLock {
      $0.lagSeconds = waiting
      $0.laggingSince = since
    }
    switch change {
    case nil:
      break
    case .lagging(let since, let seconds)?:
      log.record(
        MonitorEvent(
          time: Date(), channel: name, name: .lagging,
          message: String(
            format: "lagging: the matcher is %.1f s behind real time (audio waiting to be analysed); ", seconds)
            + "audio is dropped once the input's buffer is full. More worker threads (--workers, workerThreads) "
            + "help when channels share one",
          fields: [
            ("start", .time(Date(timeIntervalSince1970: since))), ("end", .null),
            ("lag_s", .number(Self.tenths(seconds))),
          ]))
    case .caughtUp(let since, let until, let most, let seconds)?:
      log.record(
        MonitorEvent(
          time: Date(), channel: name, name: .caughtUp,
          message: String(
            format: "caught up: %.1f s of audio waiting, after %.0f s lagging (at most %.1f s behind real time)",
            seconds, until - since, most),
          fields: [
            ("start", .time(Date(timeIntervalSince1970: since))), ("end", .time(Date(timeIntervalSince1970: until))),
            ("lag_s", .number(Self.tenths(seconds))), ("max_lag_s", .number(Self.tenths(most))),
          ]))
      recordLagging(from: since, to: until, maxLagSeconds: most, stillBehind: false)
    }
  }

  /// Gives the open gap, if any, its end at `time` (not before its start).
  private func endOpenGap(at time: Date) {
    guard let gapStart = openGapStart else { return }
    writer.submit(.eventEnded(channel: name, kind: .gap, start: gapStart, end: max(time, gapStart)))
    openGapStart = nil
    gapEndsAtFirstAudio = false
  }

  /// Records a lagging episode in the play log's events (one row with its span, once it is over).
  private func recordLagging(from since: Double, to until: Double, maxLagSeconds: Double, stillBehind: Bool) {
    writer.submit(
      .event(
        channel: name, kind: .lagging, start: Date(timeIntervalSince1970: since),
        end: Date(timeIntervalSince1970: until),
        detail: String(format: "the matcher fell behind real time by up to %.1f s", maxLagSeconds)
          + (stillBehind ? "; still behind when the channel stopped" : "")))
  }

  /// `seconds` rounded to a tenth, for the events' fields.
  private static func tenths(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }

  private func feed(_ lane: inout Lane, _ samples: UnsafeBufferPointer<Float>, _ chunk: InputChunk) {
    lane.sink.clock.observe(stream: lane.streamSeconds, wall: chunk.startTime)
    do {
      try lane.matcher.append(samples, channels: 1, sampleRate: chunk.sampleRate, at: 0)
    } catch {
      log.line("audio rejected by the matcher: \(error)", channel: name, severity: .error)
    }
    lane.streamSeconds += Double(chunk.frames) / chunk.sampleRate
  }

  /// Ends the current segment: every play ends at its last match, and the matchers start afresh.
  private func endSegment() {
    lane.matcher.flush()
    lane.matcher.reset()
    lane.streamSeconds = 0
    lane.sink.clock.reset()
    for old in retiring { old.matcher.flush() }
    retiring = []
  }

  /// Starts a lane on `catalog` for every new play; the current lane, and any lane retiring from an earlier reload,
  /// finish the plays they logged (a second reload within one song keeps that song's play whole).
  private func startReload(_ catalog: Catalog) {
    let old = lane
    old.sink.acceptsNewPlays = false
    retiring = (retiring + [old]).filter { $0.sink.hasOpenPlays }
    while retiring.count > retiringLaneLimit {
      retiring.removeFirst().matcher.flush()
      log.line(
        "catalog reloaded again before the plays of the catalog \(retiringLaneLimit + 1) reloads ago ended: "
          + "they end now (each catalog still finishing a play is held in memory)", channel: name, severity: .warning)
    }
    var fresh = Self.makeLane(
      channel: name, catalog: catalog, settings: settings, writer: writer, log: log, history: history,
      clusters: clusters, clips: clips)
    let earlier = retiring.map { RetiringLane(matcher: $0.matcher, sink: $0.sink) }
    fresh.sink.suppress = { [weak freshSink = fresh.sink] play in
      // A play a retiring matcher still reports: the same item, overlapping in time.
      guard let freshSink else { return false }
      let start = freshSink.clock.wallSeconds(atStream: play.startSeconds)
      return earlier.contains { lane in
        guard let matcher = lane.matcher, let sink = lane.sink else { return false }
        return matcher.currentPlays.contains { running in
          running.track.key == play.track.key
            && start < sink.clock.wallSeconds(atStream: running.endSeconds) + matcher.settings.maxGapSeconds
        }
      }
    }
    fresh.streamSeconds = 0
    lane = fresh
    log.line(
      "catalog reloaded: \(catalog.tracks.count) items; "
        + (retiring.isEmpty ? "no play running" : "running plays finish on the previous catalog"),
      channel: name)
  }

  /// Logs and records the input's notices; returns whether there were any, and whether one was a gap.
  private func handleNotices() -> (any: Bool, gap: Bool) {
    let notices = input.takeNotices()
    for notice in notices {
      let start = Date(timeIntervalSince1970: notice.startTime)
      if notice.recorded {
        if notice.kind == .gap && gapEndsAtFirstAudio { endOpenGap(at: start) }
        writer.submit(
          .event(
            channel: name, kind: notice.kind, start: start,
            end: notice.endTime.map { Date(timeIntervalSince1970: $0) }, detail: notice.detail))
        if notice.kind == .gap && notice.endTime == nil { openGapStart = start }
      }
      // The audio is back: the gap ends where it flows again.
      if notice.kind == .reconnect { endOpenGap(at: start) }
      if notice.logged {
        log.record(
          MonitorEvent(
            time: Date(), channel: self.name, name: notice.kind, message: "\(notice.kind.rawValue): \(notice.detail)",
            fields: [
              ("start", .time(start)), ("end", notice.endTime.map { .time(Date(timeIntervalSince1970: $0)) } ?? .null),
              ("detail", .string(notice.detail)),
            ]))
      }
      snapshot.withLock {
        if notice.kind == .gap {
          if notice.recorded { $0.gapCount += 1 }
          $0.inputProblem = notice.detail
        }
        if notice.kind == .overrun { $0.overrunCount += 1 }
        if notice.kind == .reconnect {
          $0.reconnectCount += 1
          $0.inputProblem = nil
        }
      }
    }
    return (!notices.isEmpty, notices.contains { $0.kind == .gap })
  }

  private func updateStatus(level: Float?) {
    let running = lane.matcher.currentPlays
    let onAir = ChannelStatus.onAir(running)
    let plays = onAir.map { play in
      ChannelStatus.CurrentPlay(
        title: play.track.metadata.title, artist: play.track.metadata.artist,
        start: lane.sink.clock.date(atStream: play.startSeconds), end: lane.sink.clock.date(atStream: play.endSeconds),
        referenceOffsetSeconds: play.referenceOffsetSeconds, speed: play.speed, confidence: play.confidence,
        kind: play.track.metadata.kind.rawValue)
    }
    let unknownMusic = lane.matcher.air?.unknownMusicOnAir.flatMap { music in
      plays.isEmpty
        ? ChannelStatus.UnknownMusic(
          since: lane.sink.clock.date(atStream: music.sinceSeconds), cluster: music.cluster) : nil
    }
    let inputStatus = input.status
    let sourceRate = input.sourceSampleRate
    let xruns = input.xruns
    let matcherState = lane.matcher.state
    let started = history.startedCount
    var recentPlays = history.recent
    // A running play the next item has replaced is over: it shows as ended at its last match, though the matcher
    // closes it only `maxGapSeconds` later (the play log gets its end then).
    let onAirTokens = Set(onAir.compactMap { lane.sink.tokens[$0.id] })
    var lastMatch: [UInt64: Date] = [:]
    for play in running {
      if let token = lane.sink.tokens[play.id] { lastMatch[token] = lane.sink.clock.date(atStream: play.endSeconds) }
    }
    for index in recentPlays.indices where recentPlays[index].end == nil {
      let token = recentPlays[index].id
      if !onAirTokens.contains(token), let end = lastMatch[token] { recentPlays[index].end = end }
    }
    let reading = level.map {
      $0 == -.infinity && input.status == .ended
        ? $0 : meter.reading(peakDB: $0, atNanoseconds: DispatchTime.now().uptimeNanoseconds)
    }
    let levels = self.levels
    snapshot.withLock {
      $0.input = inputStatus
      $0.sourceSampleRate = sourceRate
      $0.xruns = xruns
      $0.matcher = matcherState
      if let reading { $0.peakLevelDB = reading }
      $0.current = plays
      $0.unknownMusic = unknownMusic
      $0.lastAudioTime = segmentEnd ?? $0.lastAudioTime
      $0.playCount = started
      $0.recentPlays = recentPlays
      $0.levelSeconds = levels
    }
  }
}
