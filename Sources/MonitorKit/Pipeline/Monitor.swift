import Common
import Foundation
import JackInput
import Matcher
import Reports
import Synchronization

/// The live monitor, assembled in this one place from its configuration:
///
///     JACK ports ─┐ (real-time callback → one lock-free ring per port: JackInput, RingBuffer)
///     streams ────┼─→ ChannelInput ─→ ChannelPipeline (StreamMatcher per channel) ─→ PlayLogWriter ─→ SQLite
///     files ──────┘        ↑ drained by a fixed WorkerPool                       ↘ MonitorLog (stderr)
///     statuses ─→ AlertWatcher (its timer thread) ─→ PlayLogWriter, MonitorLog, webhooks, alerts.command
///     Icecast's stats ─→ IcecastStatsSampler (its thread) ─→ PlayLogWriter (listener samples)
///
/// `init` checks everything that can be checked before anything starts (catalog, play log, sources): a monitor
/// never starts half-configured. `start()` starts the sources and the workers; `stop()` ends every running play at
/// the last audio heard and writes it before returning.
///
/// SIGHUP reads the whole configuration again (`Monitor+Reload.swift`): channels added or removed start or stop
/// without touching the others, changed ones restart, and the catalog reloads.
///
/// Threads: the control thread (the one that runs `broadcast-monitor run`) calls every method; `statuses`,
/// `pipelines`, `configuration`, `reloadCatalog()` and `reload(loading:)` from any thread.
final class Monitor: @unchecked Sendable {
  let log: MonitorLog
  let jack: JackSession?
  let writer: PlayLogWriter
  /// Held for the monitor's lifetime (and released by the kernel however the process ends).
  private let playLogLock: PlayLogLock?
  var workers: WorkerPool?
  let alerts: AlertWatcher
  /// Samples the stream listeners of the channels with an `icecastStatsURL`; nil when none has (read at start only).
  let listenerStats: IcecastStatsSampler?
  /// The unknown-music segments of every channel, clustered (one index shared by all channels).
  let clusters: UnknownClusters
  /// Keeps the unknown segments' audio clips (`unknown.clipsDirectory`), nil without it.
  let clips: UnknownClipWriter?
  let catalogInfo: Mutex<Catalog.Info>
  private let startedAt = Mutex(Date())
  /// The configuration, catalog and channels running now: a reload replaces them.
  let running: Mutex<(configuration: MonitorConfiguration, catalog: Catalog, pipelines: [ChannelPipeline])>
  /// Taken by `start()`, a reload and `stop()`, so that they never overlap; `stopped` once `stop()` began.
  let lifecycle = Mutex(LifecycleState())

  struct LifecycleState {
    var stopped = false
    /// The start of the open gap of each channel a reload removed while it was listening, by name: a reload that
    /// adds the channel back hands the gap to its new pipeline, whose first audio ends it.
    var removedChannelGaps: [String: Date] = [:]
  }

  /// The channels stopped because another live node held them (`stopChannels(refusedBy:)`), by name: started again
  /// when that node has ended (`takeOver(channels:)`), or by a reload that lists them. Changed only inside
  /// `lifecycle`'s lock, so that a reload or a takeover sees them settled; read by `overview` on any thread.
  let waiting = Mutex<[String: WaitingChannel]>([:])

  /// The configuration the monitor runs with now. Any thread.
  var configuration: MonitorConfiguration { running.withLock { $0.configuration } }
  /// The catalog the channels match against now. Any thread.
  var catalog: Catalog { running.withLock { $0.catalog } }
  /// The channels, in the configuration's order. Any thread.
  var pipelines: [ChannelPipeline] { running.withLock { $0.pipelines } }

  /// Loads the catalog, locks and opens the play log (closing plays a previous run left open), and builds every
  /// channel.
  /// - Throws: an error that names the file or setting and the fix; ``PlayLogLockError/held(playLog:lockPath:owner:)``
  ///   when another monitor (or a scan) writes to the play log.
  init(configuration: MonitorConfiguration, log: MonitorLog) throws {
    self.log = log
    let catalogURL = URL(fileURLWithPath: configuration.catalogPath)
    let catalog = try Catalog.load(from: catalogURL, ownCopy: true)
    if let folder = configuration.spoolDirectory, access(folder, W_OK) != 0 {
      throw ConfigurationError(
        keyPath: "spoolDirectory",
        reason: "cannot write in \(folder) (\(String(cString: strerror(errno)))); create the folder and let the user "
          + "running broadcast-monitor write in it, or leave spoolDirectory out to keep the spool beside the play log")
    }
    // Locked (SQLite) or leased (PostgreSQL, with the channels claimed) before the recovery below, which must only
    // ever close plays that no running monitor owns.
    let node = configuration.database.node ?? PlayLogLocation.hostName
    let (store, lock) = try PlayLogLocation.openForWriting(
      configuration.databasePath, node: node, passwordFile: configuration.database.passwordFile,
      channels: configuration.channels.map(\.name), command: "run", standby: configuration.database.standby == true)
    playLogLock = lock
    // The spool comes before the recovery: the plays its commands leave open are recovered like any other.
    let spool = PlayLogLocation.spool(
      for: configuration.databasePath, node: node, directory: configuration.spoolDirectory)
    // A PostgreSQL node that starts while its server is down spools this run's plays after the last run's (read
    // now, replayed on connecting), unless that spool is damaged: a record after the damage could not be read.
    let lastRun = PlayLogLocation.isPostgreSQL(configuration.databasePath) ? try spool.read() : nil
    let spoolsWhileStarting = PlayLogLocation.isPostgreSQL(configuration.databasePath) && lastRun?.damage == nil
    let refusals = ChannelRefusals()
    (store as? PostgreSQLPlayLogStore)?.onChannelsRefused = { refusals.report($0) }
    // A standby node's channels that another live node held at its start (`database.standby`), read before the
    // writer's thread takes the store: stopped before the monitor starts, and waited for.
    let refusedAtStart = (store as? PostgreSQLPlayLogStore).map { postgreSQL in
      postgreSQL.refusedChannels.sorted { $0.key < $1.key }.map {
        PlayLogNodeError.channelHeld(channel: $0.key, node: $0.value, url: postgreSQL.path)
      }
    }
    // When this run began listening, for its restart row and the end of the gaps the last run left open, also when
    // those are written later (a play log that cannot be written now).
    let started = Date()
    let startupWrites = { [log] in
      if !spoolsWhileStarting {
        try PlayLogWriter.replay(spool, into: store, log: log)
      } else if let lastRun, !lastRun.entries.isEmpty {
        try PlayLogWriter.replay(lastRun, of: spool, into: store, log: log)
        log.line("play spool \(spool.path): \(lastRun.entries.count) writes kept by the last run were replayed")
      }
      let recovered = try store.recoverOpenPlays()
      try store.recoverOpenAlerts(at: started)
      let downtime = try store.recoverDowntime(channels: configuration.channels.map(\.name), at: started)
      let killed = downtime.oldestHeartbeat.map { heartbeat in
        "the previous run ended without stopping (killed, crashed or a power cut): \(downtime.killedRunGaps) "
          + "channels recorded as not heard from their last heartbeat (the oldest \(ISO8601Millis.format(heartbeat))) "
          + "until this start"
      }
      try store.recordEvent(
        channel: nil, kind: .restart, start: started,
        detail: "broadcast-monitor started with \(configuration.channels.count) channels"
          + (recovered.isEmpty ? "" : "; \(recovered.count) plays left open by the previous run marked recovered")
          + (killed.map { "; \($0)" } ?? ""))
      if !recovered.isEmpty {
        log.line("\(recovered.count) plays left open by the previous run were closed and marked recovered")
      }
      if let killed { log.line(killed, severity: .warning) }
    }
    // A play log that cannot be written now (a full disk, another program's write lock) does not stop the start:
    // the monitor listens, and the writer does these writes first, as soon as it can, before any play.
    var deferred: (() throws -> Void)?
    do {
      try startupWrites()
      if spoolsWhileStarting { try spool.remove() }
    } catch let error as SQLiteError where !error.isUnusableFile {
      deferred = startupWrites
    } catch let error as PostgreSQLError where error.isConnectionLost {
      deferred = startupWrites
    }
    // Unknown music: the clusters of earlier runs, from their fingerprints in the play log (after the spool's replay).
    let clusters = UnknownClusters(parameters: catalog.parameters)
    self.clusters = clusters
    if deferred == nil, let restored = try? AirStretchRecorder.restoreClusters(clusters, from: store), restored > 0 {
      log.line(
        "unknown music: \(restored) earlier segments restored into their clusters, \(clusters.searchedCount) of them "
          + "searched")
    }
    let writer = PlayLogWriter(
      store: store, spool: spool, log: log, startupWrites: deferred, spoolsWhileStarting: spoolsWhileStarting)
    self.writer = writer
    let clips = configuration.unknown.clipsDirectory.map {
      UnknownClipWriter(
        directory: $0, settings: configuration.unknown, sampleRateHz: catalog.parameters.sampleRateHz, log: log)
    }
    self.clips = clips

    let jackChannels = configuration.channels.compactMap { channel -> JackSession.Channel? in
      guard case .jack(let source) = channel.source else { return nil }
      return JackSession.Channel(name: channel.name, source: source, ports: source.portNames(channel: channel.name))
    }
    if !jackChannels.isEmpty && ProcessInfo.processInfo.environment["BM_JACK_VERBOSE"] == nil {
      JackLibraryMessages.silence()  // the session logs lost and found servers itself, once each
    }
    let jack = jackChannels.isEmpty ? nil : JackSession(settings: configuration.jack, channels: jackChannels, log: log)
    self.jack = jack
    let pipelines = try configuration.channels.map { channel in
      try Self.makePipeline(
        channel, configuration: configuration, catalog: catalog, jack: jack, writer: writer, log: log,
        clusters: clusters, clips: clips)
    }
    running = Mutex((configuration, catalog, pipelines))
    let info = catalog.info()
    catalogInfo = Mutex(info)
    alerts = AlertWatcher(configuration: configuration, writer: writer, log: log)
    listenerStats = IcecastStatsSampler(configuration: configuration, writer: writer, log: log)
    log.line(
      String(
        format: "catalog %@: %d items, %.1f min of audio; play log %@; %d channels on %d worker threads",
        configuration.catalogPath, info.trackCount, info.hours * 60, configuration.databasePath, pipelines.count,
        min(configuration.workerThreads, pipelines.count)))
    refusals.handle { [weak self] errors in
      guard let monitor = self else { return }
      DispatchQueue.global().async { monitor.stopChannels(refusedBy: errors) }
    }
    writer.handleFreedChannels { [weak self] names in
      guard let monitor = self else { return }
      DispatchQueue.global().async { monitor.takeOver(channels: names) }
    }
    if let refusedAtStart, !refusedAtStart.isEmpty { stopChannels(refusedBy: refusedAtStart) }
  }

  /// A channel's pipeline, with its input (not started yet).
  static func makePipeline(
    _ channel: ChannelConfiguration, configuration: MonitorConfiguration, catalog: Catalog, jack: JackSession?,
    writer: PlayLogWriter, log: MonitorLog, clusters: UnknownClusters, clips: UnknownClipWriter?
  ) throws -> ChannelPipeline {
    let rate = catalog.parameters.sampleRateHz
    let input: any ChannelInput
    switch channel.source {
    case .jack(let source):
      input = JackChannelInput(channel: channel.name, ports: source.portNames(channel: channel.name), session: jack!)
    case .stream(let url):
      input = try StreamInput(url: url, sampleRate: rate)
    case .file(let path, let loop):
      input = try StreamInput(filePath: path, loop: loop, sampleRate: rate)
    }
    return ChannelPipeline(
      name: channel.name, input: input, catalog: catalog, settings: configuration.matcherSettings(for: channel),
      writer: writer, log: log, clusters: clusters, clips: clips)
  }

  /// Starts the sources and the workers. Control thread.
  /// - Throws: when a source cannot start at all (a file that does not exist); nothing keeps running then.
  func start() throws {
    try lifecycle.withLock { _ in try startLocked() }
  }

  private func startLocked() throws {
    let pipelines = self.pipelines
    let configuration = self.configuration
    do {
      for pipeline in pipelines { try pipeline.input.start() }
    } catch {
      for pipeline in pipelines { pipeline.input.stop() }
      alerts.stop()
      _ = writer.stop()
      throw error
    }
    jack?.start()
    listenerStats?.start()
    startedAt.withLock { $0 = Date() }
    for pipeline in pipelines {
      log.line("listening to \(pipeline.input.sourceDescription)", channel: pipeline.name)
    }
    workers = WorkerPool(threads: configuration.workerThreads, pipelines: pipelines) { [writer] in
      writer.submitHeartbeat($0)
      writer.checkFreedChannelsSoon()
    }
    // The channels running at each evaluation: a reload adds, replaces and removes them.
    alerts.start { [self] in (self.pipelines.map(\.status), overview(alerts: false)) }
  }

  /// Loads the catalog file again and hands it to every channel; running plays are kept. On a bad file, or the same
  /// file unchanged since it was loaded (`Catalog.isUnchangedFile`), the running catalog stays. Any thread (the
  /// SIGHUP handler).
  func reloadCatalog() {
    let configuration = self.configuration
    if running.withLock({ $0.catalog }).isUnchangedFile(at: configuration.catalogPath) {
      log.line("SIGHUP: catalog \(configuration.catalogPath) unchanged since it was loaded: kept")
      return
    }
    do {
      let fresh = try Catalog.load(from: URL(fileURLWithPath: configuration.catalogPath), ownCopy: true)
      for pipeline in pipelines { pipeline.reload(catalog: fresh) }
      running.withLock { $0.catalog = fresh }
      catalogInfo.withLock { $0 = fresh.info() }
      log.line("SIGHUP: catalog \(configuration.catalogPath) reloaded: \(fresh.tracks.count) items")
    } catch {
      log.line("SIGHUP: catalog not reloaded, the running one stays: \(error)", severity: .error)
    }
  }

  /// What every channel is doing. Any thread.
  var statuses: [ChannelStatus] {
    pipelines.map { pipeline in
      var status = pipeline.status
      status.alerts = alerts.active(channel: pipeline.name)
      return status
    }
  }

  /// How long the play log's writes took so far. Any thread.
  var playLogWriteLatency: LatencyHistogram.Snapshot { writer.writeLatency.snapshot }

  /// The monitor as a whole: uptime, catalog, play log, JACK, its own alerts. Any thread.
  var overview: MonitorOverview { overview(alerts: true) }

  private func overview(alerts withAlerts: Bool) -> MonitorOverview {
    let info = catalogInfo.withLock { $0 }
    let capture = jack?.current?.capture
    let peers = writer.peerNodes
    return MonitorOverview(
      startedAt: startedAt.withLock { $0 }, catalogPath: configuration.catalogPath, catalogItems: info.trackCount,
      catalogHours: info.hours, databasePath: configuration.databasePath, storeBacklog: writer.backlog,
      storeFailing: writer.isFailing,
      jack: jack.map { session in
        MonitorOverview.Jack(
          serverName: session.settings.serverName, clientName: capture?.clientName ?? session.settings.clientName,
          connected: capture != nil, sampleRateHz: capture?.sampleRate, bufferFrames: capture?.bufferSize,
          xruns: capture?.xruns ?? 0)
      }, alerts: withAlerts ? alerts.active(channel: nil) : [], playLogOutage: writer.outage,
      storeSpooled: writer.spooled, peerNodes: peers?.peers ?? [], peerNodesCheckedAt: peers?.checkedAt,
      waitingChannels: waiting.withLock { $0.values.sorted { $0.name < $1.name } })
  }

  /// Stops: the sources stop, the workers consume what is buffered and end every running play at the last audio
  /// heard, each channel that was listening records that it is not heard from there (a gap, which the next start
  /// ends) and the heartbeats are cleared (a run that is killed leaves them, and the next start records its channels
  /// as not heard from them), and the play log writes everything before this returns. When the play log cannot be
  /// written, what is left goes to the spool for the next start (or, if the spool cannot be written either, on
  /// standard error).
  /// Control thread.
  /// - Returns: what is not in the play log; empty after a clean stop.
  @discardableResult
  func stop() -> PlayLogWriter.Leftover {
    // Waits for a reload that is under way; a second call (a test's deferred stop after its own) does nothing.
    let alreadyStopped = lifecycle.withLock { state in
      defer { state.stopped = true }
      return state.stopped
    }
    guard !alreadyStopped else { return PlayLogWriter.Leftover() }
    let configuration = self.configuration
    // The channels listening until now: not those whose input had ended (a file played to its end).
    let listening = pipelines.filter { $0.input.status != .ended }
    jack?.stop()
    for pipeline in pipelines { pipeline.input.stop() }
    workers?.stop()
    workers = nil
    let stoppedAt = Date()
    for pipeline in listening { pipeline.recordStopped(at: stoppedAt) }
    // Stopped, not killed: the next start ends the gaps above and finds no heartbeat to take for a kill.
    writer.submit(.stopped)
    alerts.stop()  // closes the open alerts, before the writer stops
    listenerStats?.stop()
    clips?.waitUntilIdle()  // the unknown segments whose clips are being written, before the writer stops
    let leftover = writer.stop()
    if leftover.spooled > 0 {
      log.line(
        "play log \(configuration.databasePath) could not be written: \(leftover.spooled) writes are kept in the "
          + "spool \(writer.spoolPath), and the next start replays them into the play log", severity: .warning)
    }
    if !leftover.unspooled.isEmpty {
      let message =
        "PLAYS NOT SAVED: play log \(configuration.databasePath) could not be written, and neither could the spool "
        + "\(writer.spoolPath) (\(leftover.spoolError ?? "")): \(leftover.unspooled.count) writes follow on standard "
        + "error, one per line, for a person to keep"
      log.line(message, severity: .error)
      var text = ""
      for line in leftover.unspooled { text += "unwritten: \(line)\n" }
      StandardStream.write(text, to: STDERR_FILENO)
    }
    log.line("stopped")
    return leftover
  }
}
