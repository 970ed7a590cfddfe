import Common
import Foundation
import Reports
import Synchronization

/// The monitor's one writer to the play log: channel workers hand it plays and events, its own thread writes them,
/// in order, each in its own synced transaction.
///
/// A play row is written as soon as the matcher recognizes the play (status `open`) and moved forward as it
/// continues, so a crash loses at most the last progress interval of its end time, never the play. A play that
/// continues an earlier play of the same airing, cut by a restart or a gap in the input (see
/// `PlayLogStore.reopenPlayOfSameAiring`), moves that row on instead of adding one.
///
/// When the store cannot be written (a full disk, a read-only or locked file), every waiting command is first
/// appended to the durable spool (`PlaySpool`, synced), then the error is logged once with the file and the cause,
/// and the writer retries every `retrySeconds` until the store is writable again; commands that come meanwhile go
/// to the spool as they come. Once everything spooled is written, the spool is removed. While the spool exists
/// (it could not be removed), every command goes to it before the store, so that replaying it from its start ends
/// where the play log is. A stop while the store is failing leaves the rest in the spool, and the next start
/// replays it (`replay(_:into:log:)`): nothing is lost or written twice.
///
/// Threads: `submit` from any thread; `stop()` from the control thread. The store and the spool are used by the
/// writer's thread only, after `init` hands them over.
final class PlayLogWriter: @unchecked Sendable {
  /// What a channel asks the writer to do. `token` identifies a play across its commands (unique per writer).
  enum Command: Sendable, Equatable, Codable {
    case start(token: UInt64, play: PlayRecord)
    case update(
      token: UInt64, start: Date, end: Date, refOffsetSeconds: Double, speed: Double, confidence: Double, closed: Bool)
    case retract(token: UInt64)
    case event(channel: String?, kind: EventKind, start: Date, end: Date?, detail: String)
    /// The channel's `kind` event recorded without an end at `start` (a gap) ended at `end`: the audio came back.
    case eventEnded(channel: String, kind: EventKind, start: Date, end: Date)
    /// An alert opened (`AlertEvent`); `kind` is an `AlertKind`'s raw value. Written once however often it is
    /// retried or replayed: an alert is its channel, kind and start.
    case alertOpened(channel: String?, kind: String, start: Date, detail: String)
    /// The alert that opened at `start` closed at `end`.
    case alertClosed(channel: String?, kind: String, start: Date, end: Date, detail: String)
    /// A labelled stretch of the air, with its unknown segment (`AirStretchRecorder`).
    case stretch(AirStretchRecord)
    /// An unknown segment logged before, changed by a cluster split (`AirStretchRecorder`).
    case reviseUnknown(UnknownSegmentRevision)
    /// The audio clip of a catalog play (`AirStretchRecorder+PlayAudio`).
    case playClip(PlayClipRecord)
    /// A channel's stream listener count at `sampledAt` (`IcecastStatsSampler`).
    case listeners(channel: String, sampledAt: Date, listeners: Int)
    /// Through when the monitor heard each channel it listens to now, replacing the last heartbeat
    /// (`WorkerPool`'s watch thread); an empty list while every channel waits for another node.
    case heartbeat(channels: [ChannelHeartbeat])
    /// The monitor stops cleanly: its heartbeats are deleted (`PlayLogStorage.clearHeartbeat()`).
    case stopped
  }

  /// What `stop` could not write to the play log.
  struct Leftover {
    /// Commands kept in the spool, which the next start replays.
    var spooled = 0
    /// Commands in neither the play log nor the spool (the spool could not be written, or the writer did not end in
    /// time), as spool lines for a person to keep.
    var unspooled: [String] = []
    /// Why the spool could not take them.
    var spoolError: String?

    var isEmpty: Bool { spooled == 0 && unspooled.isEmpty }
  }

  /// How long `stop` waits for the writer, in seconds: the systemd unit's `TimeoutStopSec=15` less the workers'
  /// stop and a margin. Each attempt at a locked play log takes SQLite's 5 s busy timeout; what waits is in the
  /// spool before the last attempt, so giving up loses nothing.
  static let stopTimeoutSeconds = 9.0

  private let log: MonitorLog
  private let retrySeconds: Double
  /// The commands waiting to be written, in order; the first `spooled` of them are in the spool.
  private let queue = Mutex<(commands: [Command], spooled: Int)>(([], 0))
  private let wake = DispatchSemaphore(value: 0)
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  /// Set by the writer's thread when it has ended (so that a second `stop` returns at once).
  private let ended = Atomic<Bool>(false)
  private let nextToken = Atomic<UInt64>(1)
  /// When `submitHeartbeat` last queued a heartbeat while the play log was failing; nil while it is not.
  private let lastHeartbeatWhileFailing = Mutex<Date?>(nil)
  private let failing = Atomic<Bool>(false)
  /// Why the store takes no writes, while `failing`.
  private let currentOutage = Mutex<PlayLogOutage?>(nil)
  /// The channels the monitor listens to after a reload, for the store (`listen(to:)`), until the writer takes them.
  private let pendingChannels = Mutex<[String]?>(nil)
  /// The other nodes as the last check after a heartbeat found them, and when.
  private let lastPeerCheck = Mutex<(checkedAt: Date, peers: [PeerNode])?>(nil)
  // Writer thread only.
  /// Writes the play log needs before any command (the last run's spool, the recovery of its open plays), when
  /// they failed at start.
  private var startupWrites: (() throws -> Void)?
  private var applier: PlayCommandApplier
  private let spool: PlaySpool
  private var lastError: String?
  private var lastSpoolError: String?
  /// While `startupWrites` wait, the waiting commands go to the spool too (after the last run's).
  private let spoolsWhileStarting: Bool
  /// The channels whose writes the play log refuses because another node holds them (logged once each).
  private var droppedChannels: Set<String> = []
  /// The last error of reading the other nodes' heartbeats, logged once.
  private var lastPeerError: String?
  /// Told the channels refused to this node whose holders have ended (`PlayLogStorage.freedChannels()`), on the
  /// writer's thread, at each check that finds some (`handleFreedChannels(with:)`).
  private let freedChannelsHandler = Mutex<(@Sendable ([String]) -> Void)?>(nil)
  /// Set by `checkFreedChannelsSoon()`: the writer's thread checks once it wakes.
  private let freedCheckDue = Atomic<Bool>(false)

  /// Takes over `store` (opened by the caller, so that a store that cannot be opened stops the start) and `spool`
  /// (replayed by the caller with `replay(_:into:log:)`; default: the one beside the play log). `startupWrites`:
  /// the caller's start-up writes (the spool's replay, the recovery) when the store could not take them; the writer
  /// retries them every `retrySeconds` before it writes any command, and commands wait in memory meanwhile (the
  /// spool still holds the last run's commands, which must reach the play log first); a stop then leaves them in
  /// the spool, after the last run's. With `spoolsWhileStarting` (a PostgreSQL node that started while its server
  /// was down, and whose spool is undamaged), they are appended to the spool as they come, after the last run's,
  /// so that a crash during a long outage loses none; `startupWrites` must then replay only the last run's
  /// commands and leave the spool (`replay(_:of:into:log:)`), which the writer removes once all are written.
  init(
    store: any PlayLogStorage, spool: PlaySpool? = nil, log: MonitorLog, retrySeconds: Double = 1,
    startupWrites: (() throws -> Void)? = nil, spoolsWhileStarting: Bool = false
  ) {
    self.spoolsWhileStarting = spoolsWhileStarting
    self.startupWrites = startupWrites
    if startupWrites != nil { failing.store(true, ordering: .relaxed) }
    applier = PlayCommandApplier(store: store)
    self.spool = spool ?? PlaySpool(playLogPath: store.path)
    self.log = log
    self.retrySeconds = retrySeconds
    let thread = Thread { [unowned self] in self.run() }
    thread.name = "play-log-writer"
    thread.start()
  }

  /// Tells the play log the channels the monitor listens to after a reload (`PlayLogStorage.listen(to:)`: in
  /// PostgreSQL, the node claims those added and gives up those removed), before any command submitted after this
  /// call. Not spooled: a reload's channels are this run's. Any thread.
  func listen(to channels: [String]) {
    pendingChannels.withLock { $0 = channels }
    wake.signal()
  }

  /// Sets what is told the channels refused to this node whose holders have ended since: at each
  /// `checkFreedChannelsSoon()`, the writer asks the play log (`PlayLogStorage.freedChannels()`, one lease probe per
  /// refused channel, none when there is none) and hands on those it names, again at each check until a reload
  /// listens to them. Any thread.
  func handleFreedChannels(with handler: @escaping @Sendable ([String]) -> Void) {
    freedChannelsHandler.withLock { $0 = handler }
  }

  /// Asks the writer's thread to check the channels refused to this node (see `handleFreedChannels(with:)`), unless
  /// the play log cannot be written or the writer stops. The monitor asks at each heartbeat, every 10 s, also when
  /// no channel runs (a node that only stands by). Any thread.
  func checkFreedChannelsSoon() {
    freedCheckDue.store(true, ordering: .relaxed)
    wake.signal()
  }

  /// A fresh play token. Any thread.
  func makeToken() -> UInt64 { nextToken.wrappingAdd(1, ordering: .relaxed).oldValue }

  /// Queues a command. Any thread; never blocks on the database or the spool.
  func submit(_ command: Command) {
    queue.withLock { $0.commands.append(command) }
    wake.signal()
  }

  /// How often a heartbeat is queued while the play log cannot be written, in seconds: every command then goes to
  /// the spool as it comes, and the spool of a long outage should not grow by each channel's heartbeat every few
  /// seconds (64 channels' heartbeats take about 2 kB). A monitor killed during the outage then records its
  /// channels as not heard from up to this much before it was killed.
  static let heartbeatSecondsWhileFailing = 60.0

  /// Queues the channels' heartbeat (`Command.heartbeat`), unless the play log is failing and one was queued less
  /// than `heartbeatSecondsWhileFailing` before `now`. Any thread.
  func submitHeartbeat(_ heartbeats: [ChannelHeartbeat], now: Date = Date()) {
    let due = lastHeartbeatWhileFailing.withLock { last in
      guard isFailing else {
        last = nil
        return true
      }
      if let last, now.timeIntervalSince(last) < Self.heartbeatSecondsWhileFailing { return false }
      last = now
      return true
    }
    if due { submit(.heartbeat(channels: heartbeats)) }
  }

  /// Commands waiting to be written (more than a handful only while the store is failing). Any thread.
  var backlog: Int { queue.withLock { $0.commands.count } }

  /// Commands waiting to be written that are in the spool. Any thread.
  var spooled: Int { queue.withLock { $0.spooled } }

  /// How long each write to the play log took. Any thread.
  let writeLatency = LatencyHistogram()

  /// True while the last write failed and commands are waiting for the store. Any thread.
  var isFailing: Bool { failing.load(ordering: .relaxed) }

  /// Why the play log takes no writes now (its cause, since when, the last error); nil while it takes them. Any
  /// thread.
  var outage: PlayLogOutage? { currentOutage.withLock { $0 } }

  /// The spool file. Any thread.
  var spoolPath: String { spool.path }

  /// The other nodes of a PostgreSQL deployment (`PlayLogStorage.peerNodes()`), read after each heartbeat this
  /// writer writes, and when; nil before the first. Any thread.
  var peerNodes: (checkedAt: Date, peers: [PeerNode])? { lastPeerCheck.withLock { $0 } }

  /// Waits until every command submitted so far is written to the play log, or `timeoutSeconds` pass (a store that
  /// is down: the commands stay in the spool). Returns true when everything is written. Control thread.
  @discardableResult
  func waitUntilWritten(timeoutSeconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while backlog > 0 {
      guard Date() < deadline else { return false }
      wake.signal()
      usleep(useconds_t(Self.writtenPollMilliseconds * 1000))
    }
    return true
  }

  /// How often `waitUntilWritten` looks at the backlog, in milliseconds: the writer retries every `retrySeconds`.
  static let writtenPollMilliseconds = 100

  /// Writes everything queued, then closes the store. When the store cannot be written, tries once more at once and
  /// leaves the rest in the spool (where it already is); when the writer has written nothing for `timeoutSeconds`
  /// (a locked store, a write that hangs), gives up. A long backlog that is being written is waited for. Returns
  /// what is not in the play log. Control thread; a second call returns at once.
  func stop(timeoutSeconds: Double = PlayLogWriter.stopTimeoutSeconds) -> Leftover {
    stopping.store(true, ordering: .releasing)
    wake.signal()
    var deadline = DispatchTime.now() + timeoutSeconds
    var waiting = backlog
    var timedOut = false
    while !ended.load(ordering: .acquiring), finished.wait(timeout: min(deadline, .now() + 0.25)) == .timedOut {
      if backlog < waiting {
        waiting = backlog
        deadline = .now() + timeoutSeconds
      } else if DispatchTime.now() >= deadline {
        timedOut = true
        break
      }
    }
    return queue.withLock { queue in
      var leftover = Leftover(spooled: queue.spooled)
      leftover.unspooled = queue.commands.dropFirst(queue.spooled).map { Self.line(PlaySpool.Entry(command: $0)) }
      if !leftover.unspooled.isEmpty {
        leftover.spoolError =
          timedOut ? "the play log writer wrote nothing for \(timeoutSeconds) s" : lastSpoolError ?? "not written"
      }
      return leftover
    }
  }

  /// Writes the commands in `spool` to `store`, in order, each once (a start or an event already in the play log
  /// is found, not added again), then removes the spool. Call it before `PlayLogStore.recoverOpenPlays()`: the
  /// plays the spooled commands leave open are then recovered like any other. A damaged spool is replayed up to the
  /// damage (logged, and the rest kept in `SPOOL.damaged`).
  /// - Returns: the number of commands replayed.
  /// - Throws: ``SQLiteError`` when the play log cannot be written (the spool stays for the next start);
  ///   ``PlaySpoolError`` or a `ConfigurationError` when the spool cannot be read or removed, or is another play
  ///   log's.
  @discardableResult
  static func replay(_ spool: PlaySpool, into store: any PlayLogStorage, log: MonitorLog) throws -> Int {
    guard let contents = try spool.read() else { return 0 }
    try replay(contents, of: spool, into: store, log: log)
    try spool.remove()
    if !contents.entries.isEmpty {
      log.line("play spool \(spool.path): \(contents.entries.count) writes kept by the last run were replayed")
    }
    return contents.entries.count
  }

  /// Writes `contents`, read from `spool` before, to `store` as `replay(_:into:log:)` does, but leaves the spool
  /// (a writer with `spoolsWhileStarting` appends to it meanwhile, and removes it).
  static func replay(
    _ contents: PlaySpool.Contents, of spool: PlaySpool, into store: any PlayLogStorage, log: MonitorLog
  ) throws {
    var applier = PlayCommandApplier(store: store)
    var dropped: [String: (count: Int, error: PlayLogNodeError)] = [:]
    for entry in contents.entries {
      do {
        try applier.apply(entry, retrying: true)
      } catch let error as PlayLogError {
        log.line("play spool \(spool.path): a command the play log refuses is skipped: \(error)", severity: .warning)
      } catch let error as PlayLogNodeError {
        guard case .channelHeld(let channel, _, _) = error else { throw error }
        dropped[channel, default: (0, error)].count += 1
      }
    }
    for (channel, drop) in dropped.sorted(by: { $0.key < $1.key }) {
      log.line(
        "play spool \(spool.path): \(drop.count) writes of channel \(channel) are dropped: \(drop.error)",
        channel: channel, severity: .error)
    }
    if let damage = contents.damage {
      if damage.isCutTail {
        log.line(
          "play spool \(spool.path): its last record was cut off at byte \(damage.offset) (\(damage.reason)), by a "
            + "crash while it was written; that record had not been reported as kept and is dropped; the "
            + "\(contents.entries.count) records before it were replayed", severity: .warning)
      } else {
        let kept = spool.path + ".damaged"
        _ = try? FileManager.default.removeItem(atPath: kept)
        let moved = (try? FileManager.default.copyItem(atPath: spool.path, toPath: kept)) != nil
        log.line(
          "play spool \(spool.path) is damaged at byte \(damage.offset): \(damage.reason). The "
            + "\(contents.entries.count) records before it were replayed; the rest cannot be read"
            + (moved ? " and is kept in \(kept) for inspection" : "")
            + ". Compare the play log with the air for the time of the last stop.", severity: .error)
      }
    }
  }

  /// A spool entry as one line (JSON).
  static func line(_ entry: PlaySpool.Entry) -> String {
    (try? PlaySpool.encoder.encode(entry)).map { String(decoding: $0, as: UTF8.self) } ?? "\(entry.command)"
  }

  private func run() {
    if startupWrites != nil && !completeStartupWrites() {
      try? applier.store.close()
      ended.store(true, ordering: .releasing)
      finished.signal()
      return
    }
    var nextRetry: DispatchTime?  // set while the store is failing
    while true {
      if let nextRetry { _ = wake.wait(timeout: nextRetry) } else { wake.wait() }
      let stop = stopping.load(ordering: .acquiring)
      if let channels = pendingChannels.withLock({ $0.take() }) { listen(channels) }
      if freedCheckDue.exchange(false, ordering: .relaxed) && !stop && !failing.load(ordering: .relaxed) {
        checkFreedChannels()
      }
      if failing.load(ordering: .relaxed) {
        spoolWaiting()
        // A stop tries the store once more at once (it may be writable again), then leaves the rest in the spool;
        // `stop`'s timeout bounds a locked store's two busy timeouts (the try under way and this one).
        if !stop, let retry = nextRetry, DispatchTime.now() < retry { continue }
      }
      nextRetry = nil
      while let command = queue.withLock({ $0.commands.first }) {
        if let channels = pendingChannels.withLock({ $0.take() }) { listen(channels) }
        if spool.exists && queue.withLock({ $0.spooled }) == 0 { spoolWaiting(upTo: 1) }
        if write(command) {
          let spooledBefore = queue.withLock { queue in
            queue.commands.removeFirst()
            defer { queue.spooled = max(0, queue.spooled - 1) }
            return queue.spooled
          }
          if spooledBefore == 1 { removeSpool() }
          if case .heartbeat = command { checkPeerNodes() }
        } else {
          nextRetry = .now() + retrySeconds
          break
        }
      }
      if stop && (nextRetry != nil || queue.withLock({ $0.commands.isEmpty })) { break }
    }
    try? applier.store.close()
    ended.store(true, ordering: .releasing)
    finished.signal()
  }

  /// Hands the store the channels of a reload. A server that cannot be reached does it on connecting again; any
  /// other failure is logged.
  private func listen(_ channels: [String]) {
    do {
      try applier.store.listen(to: channels)
    } catch let error as PostgreSQLError where error.isConnectionLost {
      return
    } catch {
      log.line(
        "the play log \(applier.store.path) was not told the channels of the reload: \(error). Channels added may "
          + "be written beside another node's, and channels removed stay this node's until it stops",
        severity: .error)
    }
  }

  /// Reads the other nodes' heartbeats, as a heartbeat of this node's has just been written: a failure is logged
  /// once, and the last check stays (the `node_down` alert waits for the next one).
  private func checkPeerNodes() {
    do {
      let peers = try applier.store.peerNodes()
      lastPeerCheck.withLock { $0 = (Date(), peers) }
      lastPeerError = nil
    } catch {
      guard "\(error)" != lastPeerError else { return }
      lastPeerError = "\(error)"
      log.line(
        "the other nodes' heartbeats in \(applier.store.path) could not be read: \(error). A node that goes down is "
          + "not alerted (node_down) until they can be", severity: .warning)
    }
  }

  /// Hands the channels refused to this node whose holders have ended to `freedChannelsHandler`. A check that
  /// fails (the server gone since) is made again at the next request.
  private func checkFreedChannels() {
    guard let handler = freedChannelsHandler.withLock({ $0 }),
      let freed = try? applier.store.freedChannels(), !freed.isEmpty
    else { return }
    handler(freed)
  }

  /// Retries `startupWrites` every `retrySeconds` until they succeed (true) or the writer stops (false: the waiting
  /// commands then go to the spool, after the last run's).
  private func completeStartupWrites() -> Bool {
    guard let startupWrites else { return true }
    var lastFailure: String?
    while true {
      do {
        try startupWrites()
        self.startupWrites = nil
        failing.store(false, ordering: .relaxed)
        currentOutage.withLock { $0 = nil }
        if spoolsWhileStarting && queue.withLock({ $0.spooled }) == 0 { removeSpool() }
        log.line(
          "play log \(applier.store.path) is writable: the start-up writes are done, and \(backlog) waiting writes "
            + "follow")
        return true
      } catch {
        var message = "\(error)"
        if let diagnosis = (error as? SQLiteError)?.fileDiagnosis { message = "\(diagnosis). \(message)" }
        currentOutage.withLock { $0 = PlayLogOutage.after(error, reason: message, previous: $0) }
        // A PostgreSQL server that is down answers differently as it goes (refused, starting up): one outage.
        let outage = (error as? PostgreSQLError)?.isConnectionLost == true ? "PostgreSQL unreachable" : message
        if outage != lastFailure {
          lastFailure = outage
          log.line(
            "play log \(applier.store.path) cannot be written at start: \(message). The monitor listens; its plays "
              + (spoolsWhileStarting
                ? "wait in the spool \(spool.path) until the play log takes the last run's spool and recovery first"
                : "wait in memory until the play log takes the last run's spool and recovery first")
              + " (start or reach the PostgreSQL server, free disk space, fix permissions, or stop the other program "
              + "holding the lock); a stop leaves them in the spool.",
            severity: .error)
        }
        if spoolsWhileStarting { spoolWaiting() }
      }
      let retryAt = DispatchTime.now() + retrySeconds
      while DispatchTime.now() < retryAt && !stopping.load(ordering: .acquiring) {
        _ = wake.wait(timeout: retryAt)
        if spoolsWhileStarting { spoolWaiting() }
      }
      if stopping.load(ordering: .acquiring) {
        spoolWaiting()
        return false
      }
    }
  }

  /// Appends the waiting commands that are not in the spool yet (at most `limit` of them) to the spool. On failure
  /// they stay in memory only; that is logged once, loudly.
  private func spoolWaiting(upTo limit: Int = .max) {
    let commands = queue.withLock { Array($0.commands.dropFirst($0.spooled).prefix(limit)) }
    guard !commands.isEmpty else { return }
    let entries = commands.map { applier.spoolEntry(for: $0) }
    do {
      try spool.append(entries)
      queue.withLock { $0.spooled += entries.count }
      if lastSpoolError != nil {
        lastSpoolError = nil
        log.line("play spool \(spool.path) is writable again")
      }
    } catch {
      let message = "\(error)"
      if message != lastSpoolError {
        lastSpoolError = message
        log.line(
          "PLAYS AT RISK: \(message). Plays the play log cannot take now wait in memory only: a stop now prints "
            + "them on standard error, and a crash loses them. Free disk space or fix the spool's folder.",
          severity: .error)
      }
    }
  }

  private func removeSpool() {
    do {
      try spool.remove()
    } catch {
      log.line("\(error); its commands are written to the play log as well, and it is replayed at the next start")
    }
  }

  /// Writes one command; false when the store failed. The waiting commands go to the spool before the failure is
  /// logged (once per distinct error) and `isFailing` says so.
  private func write(_ command: Command) -> Bool {
    let began = ContinuousClock.now
    defer {
      let elapsed = ContinuousClock.now - began
      writeLatency.record(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    do {
      let continued = try applier.apply(PlaySpool.Entry(command: command), retrying: failing.load(ordering: .relaxed))
      if let continued {
        let cut = continued.status == .recovered ? "recovered after a restart" : "cut by a gap in the input"
        if case .start(_, let play) = command {
          // A whole play (`scan`'s) that the earlier one spans is the same audio again, not the rest of an airing.
          let isAgain = play.status != .open && continued.spans(play)
          log.line(
            isAgain
              ? "\"\(play.metadata.title)\" is already in the play log as play \(continued.id) (the same audio logged "
                + "again, as when a recording is scanned twice): kept once"
              : "\"\(play.metadata.title)\" continues play \(continued.id), \(cut): one airing, one play",
            channel: play.channel)
        } else {
          log.line("a play moved onto the line of play \(continued.id), \(cut), and continues it: one airing, one play")
        }
      }
    } catch let error as PlayLogError {
      // A value the store refuses is a bug, not an outage: retrying cannot help. Log it and go on.
      log.line("play log refused a write and skipped it: \(error)", severity: .error)
      return true
    } catch PlayLogNodeError.channelHeld(let channel, let owner, let url) {
      // Another live node monitors the channel (found on connecting after an outage): its plays are that node's.
      if droppedChannels.insert(channel).inserted {
        log.line(
          "not written, from now on: \(PlayLogNodeError.channelHeld(channel: channel, node: owner, url: url))",
          channel: channel, severity: .error)
      }
      return true
    } catch {
      var message = "\(error)"
      if let diagnosis = (error as? SQLiteError)?.fileDiagnosis { message = "\(diagnosis). \(message)" }
      spoolWaiting()
      // A PostgreSQL server that is down answers differently as it goes (refused, reset, starting up): one outage.
      let outage = (error as? PostgreSQLError)?.isConnectionLost == true ? "PostgreSQL unreachable" : message
      if outage != lastError {
        lastError = outage
        log.line(
          "play log \(applier.store.path) cannot be written: \(message). Plays wait "
            + (lastSpoolError == nil
              ? "in the spool \(spool.path)" : "in memory only (the spool is not writable either, see above)")
            + " and are written as soon as it can be (free disk space, fix permissions, or stop the other program "
            + "holding the lock); a stop leaves them there for the next start.", severity: .error)
      }
      currentOutage.withLock { $0 = PlayLogOutage.after(error, reason: message, previous: $0) }
      failing.store(true, ordering: .relaxed)
      return false
    }
    for notice in applier.store.takeNotices() { log.line(notice, severity: .warning) }
    if failing.load(ordering: .relaxed) {
      failing.store(false, ordering: .relaxed)
      currentOutage.withLock { $0 = nil }
      lastError = nil
      log.line("play log \(applier.store.path) is writable again; \(backlog - 1) waiting writes follow")
    }
    return true
  }
}
