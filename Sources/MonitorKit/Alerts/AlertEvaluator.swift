import Foundation
import Reports

/// Decides which alerts are open, from the channels' and the monitor's typed status (`ChannelStatus`,
/// `MonitorOverview`), one `AlertTracker` per channel and condition:
/// - `silence`: the level stayed below `belowDBFS` for `forSeconds`, timed by the audio's own seconds
///   (`ChannelStatus.levelSeconds`), to the second;
/// - `source_down`: the input is starting or reconnecting (a stream that is refused or ends, a JACK server that
///   went away) for `forSeconds`, counted from the last audio heard;
/// - `lagging`: the matcher is more than `overSeconds` behind real time for `forSeconds`;
/// - `no_catalog`: nothing from the catalog on air for `noCatalogSeconds`, counted from the end of the last play;
/// - `play_log_unwritable` (the monitor's, no channel): the last write to the play log failed, for `forSeconds`;
/// - `node_down` (the monitor's, no channel): another node of a PostgreSQL deployment has written no heartbeat for
///   `forSeconds`, as the play log writer's last check of the other nodes found (`MonitorOverview.peerNodes`); the
///   alert begins at that node's last heartbeat, by the server's clock, so every node that sees it records the same
///   alert, and its detail follows the nodes that are down.
/// Each alert opens once and closes once (see `AlertTracker`), and `active` lists the open ones.
///
/// Threads: one thread at a time (`AlertWatcher`'s).
struct AlertEvaluator {
  private struct Channel {
    var conditions: AlertConditions
    var trackers: [AlertKind: AlertTracker] = [:]
    var details: [AlertKind: String] = [:]
    /// The newest second of the level history fed to the silence tracker.
    var silenceFedUpTo: Int64?
  }

  private var channels: [String: Channel]
  /// The monitor's own conditions (`AlertKind.isMonitorWide`), as `monitorTrackers` follow them.
  private var monitorConditions: AlertConditions
  private var monitorTrackers: [AlertKind: AlertTracker]
  private var monitorDetails: [AlertKind: String] = [:]
  /// The check of the other nodes last observed: each check is observed once, at its time.
  private var peerNodesCheckedAt: Date?
  /// When evaluation began: nothing before it was watched.
  private let startedAt: Date

  /// The open alerts, by channel (nil: the monitor's own), oldest first.
  private(set) var active: [String?: [ActiveAlert]] = [:]

  /// - Parameters:
  ///   - conditions: each channel's, by name.
  ///   - monitor: the monitor's own (`playLogUnwritableForSeconds`, `nodeDownForSeconds` and `holdSeconds`).
  init(conditions: [String: AlertConditions], monitor: AlertConditions, startedAt: Date = Date()) {
    channels = conditions.mapValues(Self.channel)
    monitorConditions = monitor
    monitorTrackers = Self.monitorTrackers(monitor)
    self.startedAt = startedAt
  }

  /// The trackers of the monitor's own alerts under `monitor`'s conditions, those that are on. `node_down` counts
  /// its seconds in the condition itself (a node silent for `forSeconds`), so its alert opens as the condition holds.
  private static func monitorTrackers(_ monitor: AlertConditions) -> [AlertKind: AlertTracker] {
    var trackers: [AlertKind: AlertTracker] = [:]
    if let seconds = monitor.playLogUnwritableForSeconds {
      trackers[.playLogUnwritable] = AlertTracker(forSeconds: seconds, holdSeconds: monitor.holdSeconds)
    }
    if monitor.nodeDownForSeconds != nil {
      trackers[.nodeDown] = AlertTracker(forSeconds: 0, holdSeconds: monitor.holdSeconds)
    }
    return trackers
  }

  /// Whether `a` and `b` differ in the monitor's own conditions.
  private static func monitorConditionsDiffer(_ a: AlertConditions, _ b: AlertConditions) -> Bool {
    a.playLogUnwritableForSeconds != b.playLogUnwritableForSeconds || a.nodeDownForSeconds != b.nodeDownForSeconds
      || a.holdSeconds != b.holdSeconds
  }

  private static func channel(_ conditions: AlertConditions) -> Channel {
    var channel = Channel(conditions: conditions)
    func track(_ kind: AlertKind, _ forSeconds: Double?) {
      if let forSeconds {
        channel.trackers[kind] = AlertTracker(forSeconds: forSeconds, holdSeconds: conditions.holdSeconds)
      }
    }
    track(.silence, conditions.silence?.forSeconds)
    track(.sourceDown, conditions.sourceDownForSeconds)
    track(.lagging, conditions.lagging?.forSeconds)
    track(.noCatalog, conditions.noCatalogSeconds)
    return channel
  }

  /// Takes a new set of channels (a configuration read again): a channel removed, or whose conditions changed, has
  /// its open alerts closed at `now` (a changed one starts afresh on its new conditions); a channel added starts
  /// with none; the others keep their state. The monitor's own conditions (`monitor`, nil: as they are) are taken
  /// the same way. Returns the alerts that closed.
  mutating func update(conditions: [String: AlertConditions], monitor: AlertConditions? = nil, now: Date = Date())
    -> [AlertEvent]
  {
    var events: [AlertEvent] = []
    if let monitor, Self.monitorConditionsDiffer(monitor, monitorConditions) {
      events += finishMonitorAlerts(now: now)
      monitorConditions = monitor
      monitorTrackers = Self.monitorTrackers(monitor)
      peerNodesCheckedAt = nil
    }
    for name in channels.keys.sorted() where conditions[name] != channels[name]?.conditions {
      guard var channel = channels[name] else { continue }
      for kind in AlertKind.allCases {
        let at = time(kind, now, channel)
        if let change = channel.trackers[kind]?.finish(at: at) {
          events.append(event(change, channel: name, kind: kind, detail: channel.details[kind] ?? "", now: now))
        }
      }
      channels[name] = nil
    }
    for (name, conditions) in conditions where channels[name] == nil { channels[name] = Self.channel(conditions) }
    return events
  }

  /// Evaluates every condition at `now`; returns the alerts that opened or closed, in the order they did.
  mutating func evaluate(statuses: [ChannelStatus], overview: MonitorOverview, now: Date = Date()) -> [AlertEvent] {
    var events: [AlertEvent] = []
    for status in statuses { events += evaluate(status, now: now) }
    if var tracker = monitorTrackers[.playLogUnwritable] {
      // Where the writes wait: a spool that cannot be written either leaves them in memory only.
      let inMemoryOnly = max(0, overview.storeBacklog - overview.storeSpooled)
      let detail =
        "the play log \(overview.databasePath) cannot be written; \(overview.storeBacklog) writes wait for it "
        + "(\(overview.storeSpooled) in its spool"
        + (inMemoryOnly > 0 ? ", \(inMemoryOnly) in memory only: the spool cannot be written either)" : ")")
      if overview.storeFailing && !tracker.isOpen { monitorDetails[.playLogUnwritable] = detail }
      if let change = tracker.observe(overview.storeFailing, at: now.timeIntervalSince1970) {
        events.append(
          event(
            change, channel: nil, kind: .playLogUnwritable, detail: monitorDetails[.playLogUnwritable] ?? "",
            now: now))
      }
      monitorTrackers[.playLogUnwritable] = tracker
    }
    // A check that did not come (this node's play log is failing) leaves the alert as it was: what the nodes
    // wrote is not known meanwhile.
    if var tracker = monitorTrackers[.nodeDown], let forSeconds = monitorConditions.nodeDownForSeconds,
      let checkedAt = overview.peerNodesCheckedAt, checkedAt != peerNodesCheckedAt
    {
      peerNodesCheckedAt = checkedAt
      let down = overview.peerNodes.filter { $0.silentSeconds >= forSeconds }
      let before = monitorDetails[.nodeDown]
      if !down.isEmpty { monitorDetails[.nodeDown] = Self.nodeDownDetail(down) }
      let since = down.map(\.lastHeartbeat).min()?.timeIntervalSince1970
      if let change = tracker.observe(!down.isEmpty, at: checkedAt.timeIntervalSince1970, since: since) {
        events.append(event(change, channel: nil, kind: .nodeDown, detail: monitorDetails[.nodeDown] ?? "", now: now))
      } else if tracker.isOpen, monitorDetails[.nodeDown] != before,
        let index = active[nil]?.firstIndex(where: { $0.kind == .nodeDown })
      {
        active[nil]?[index].detail = monitorDetails[.nodeDown] ?? ""
      }
      monitorTrackers[.nodeDown] = tracker
    }
    return events
  }

  /// What a `node_down` alert says of the nodes that are down: each one's last heartbeat, whether its session has
  /// ended, its channels (those another node took over, with that node), and what to do.
  static func nodeDownDetail(_ down: [PeerNode]) -> String {
    down.map { peer in
      var parts: [String] = []
      if !peer.channels.isEmpty {
        parts.append(
          "nothing from its channels \(peer.channels.joined(separator: ", ")) reaches the play log (a node that still "
            + "runs keeps their plays in its spool)")
      }
      let takers = Dictionary(grouping: peer.takenOver.keys.sorted(), by: { peer.takenOver[$0] ?? "" })
      for taker in takers.keys.sorted() {
        let channels = takers[taker] ?? []
        parts.append(
          "its channel\(channels.count == 1 ? "" : "s") \(channels.joined(separator: ", ")) "
            + "\(channels.count == 1 ? "was" : "were") taken over by node \(taker)")
      }
      if parts.isEmpty { parts.append("it listened to no channel (each waited for another node)") }
      return "Node \(peer.node) has written no heartbeat since \(ISO8601Millis.format(peer.lastHeartbeat)), and its "
        + "session "
        + (peer.sessionEnded
          ? "with the server has ended: it was killed or crashed, or it lost the server"
          : "with the server is still open: it hangs, or it lost its power or network under a minute ago and the "
            + "server has not noticed yet")
        + "; " + parts.joined(separator: "; ") + "."
        + (peer.channels.isEmpty
          ? " Start it again" : " Start it again, or start a node whose configuration lists its channels")
        // A node whose session is open holds its lease, and `db retire` refuses it.
        + (peer.sessionEnded
          ? "; if it is not coming back, retire it (broadcast-monitor db retire --node \(peer.node) --db THE-PLAY-LOG)."
          : ".")
    }.joined(separator: " ")
  }

  /// Closes every open alert at `now` (the monitor stops): an alert is never left open by a clean stop, but
  /// `node_down`. The node it names is still down when this one stops; its row in the play log is shared with every
  /// node still running, and each delivers it with the same kind and start, so closing it here would end the alert
  /// in the log and resolve it at a shared receiver while the node is down. The nodes still running close it when
  /// that node is back; if none runs, this node's next start closes it (`recoverOpenAlerts`), and a later close by
  /// any node sets the end the node came back.
  mutating func finish(now: Date = Date()) -> [AlertEvent] {
    var events: [AlertEvent] = []
    for name in channels.keys.sorted() {
      guard var channel = channels[name] else { continue }
      for kind in AlertKind.allCases {
        let at = time(kind, now, channel)
        if let change = channel.trackers[kind]?.finish(at: at) {
          events.append(event(change, channel: name, kind: kind, detail: channel.details[kind] ?? "", now: now))
        }
      }
      channels[name] = channel
    }
    return events + finishMonitorAlerts(now: now, keeping: [.nodeDown])
  }

  /// Closes the monitor's own open alerts at `now`, but those of `kept`.
  private mutating func finishMonitorAlerts(now: Date, keeping kept: Set<AlertKind> = []) -> [AlertEvent] {
    var events: [AlertEvent] = []
    for kind in AlertKind.allCases where kind.isMonitorWide && !kept.contains(kind) {
      if let change = monitorTrackers[kind]?.finish(at: now.timeIntervalSince1970) {
        events.append(event(change, channel: nil, kind: kind, detail: monitorDetails[kind] ?? "", now: now))
      }
    }
    return events
  }

  /// The time base of `kind`'s tracker: the audio's seconds for silence, the wall clock for the others (the same
  /// clock for a live source).
  private func time(_ kind: AlertKind, _ now: Date, _ channel: Channel) -> Double {
    kind == .silence ? Double(channel.silenceFedUpTo.map { $0 + 1 } ?? 0) : now.timeIntervalSince1970
  }

  private mutating func evaluate(_ status: ChannelStatus, now: Date) -> [AlertEvent] {
    guard var channel = channels[status.name] else { return [] }
    defer { channels[status.name] = channel }
    var events: [AlertEvent] = []
    let name = status.name
    let conditions = channel.conditions
    let wall = now.timeIntervalSince1970
    /// - Parameter follows: the open alert's detail follows the condition as it changes (the alert closes with the
    ///   latest); otherwise it stays what it was at the onset.
    func observe(
      _ kind: AlertKind, _ holds: Bool, at time: Double, since: Double? = nil, follows: Bool = false,
      detail: () -> String
    ) {
      guard var tracker = channel.trackers[kind] else { return }
      let before = channel.details[kind]
      if holds && (follows || tracker.onset == nil) { channel.details[kind] = detail() }
      if let change = tracker.observe(holds, at: time, since: since) {
        events.append(event(change, channel: name, kind: kind, detail: channel.details[kind] ?? "", now: now))
      } else if tracker.isOpen, channel.details[kind] != before,
        let index = active[name]?.firstIndex(where: { $0.kind == kind })
      {
        active[name]?[index].detail = channel.details[kind] ?? ""
      }
      channel.trackers[kind] = tracker
    }

    if let silence = conditions.silence, let last = status.levelSeconds.lastSecond {
      // Whole seconds only: the newest may still grow, unless the input has ended.
      let upTo = status.input == .ended ? last : last - 1
      var second = max((channel.silenceFedUpTo ?? .min) + 1, status.levelSeconds.firstSecond)
      while second <= upTo {
        if let peak = status.levelSeconds.peakDB(at: second), !peak.isNaN {
          observe(.silence, Double(peak) < silence.belowDBFS, at: Double(second)) {
            String(format: "the level stayed below %.1f dBFS for %.0f s", silence.belowDBFS, silence.forSeconds)
          }
        }
        second += 1
      }
      channel.silenceFedUpTo = max(channel.silenceFedUpTo ?? upTo, upTo)
      if status.input == .ended, let change = channel.trackers[.silence]?.finish(at: Double(upTo + 1)) {
        events.append(event(change, channel: name, kind: .silence, detail: channel.details[.silence] ?? "", now: now))
      }
    }

    let down = status.input == .starting || status.input == .reconnecting
    observe(
      .sourceDown, down, at: wall, since: status.lastAudioTime.map { max($0, startedAt.timeIntervalSince1970) },
      follows: true
    ) {
      "no audio from \(status.source)"
        + String(format: " for %.0f s (%@)", conditions.sourceDownForSeconds ?? 0, status.input.rawValue)
        + (status.inputProblem.map { "; latest: \($0)" } ?? "")
    }

    if let lagging = conditions.lagging {
      observe(.lagging, status.lagSeconds > lagging.overSeconds, at: wall) {
        String(
          format: "the matcher is %.1f s behind real time (alert over %.0f s)", status.lagSeconds, lagging.overSeconds)
      }
    }

    if let seconds = conditions.noCatalogSeconds {
      let lastEnd = status.recentPlays.compactMap(\.end).max()
      let since = max(lastEnd ?? startedAt, startedAt).timeIntervalSince1970
      observe(.noCatalog, status.current.isEmpty, at: wall, since: since) {
        String(format: "nothing from the catalog on air for %.0f min", seconds / 60)
      }
    }
    return events
  }

  private mutating func event(
    _ change: AlertTracker.Change, channel: String?, kind: AlertKind, detail: String, now: Date
  ) -> AlertEvent {
    let event: AlertEvent
    switch change {
    case .opened(let since):
      event = AlertEvent(
        time: now, opened: true, channel: channel, kind: kind, start: Date(timeIntervalSince1970: since), end: nil,
        detail: detail)
      active[channel, default: []].append(ActiveAlert(kind: kind, since: event.start, detail: detail))
    case .closed(let since, let until):
      event = AlertEvent(
        time: now, opened: false, channel: channel, kind: kind, start: Date(timeIntervalSince1970: since),
        end: Date(timeIntervalSince1970: until), detail: detail)
      active[channel]?.removeAll { $0.kind == kind }
      if active[channel]?.isEmpty == true { active[channel] = nil }
    }
    return event
  }
}
