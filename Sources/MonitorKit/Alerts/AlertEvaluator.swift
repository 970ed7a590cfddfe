import Foundation

/// Decides which alerts are open, from the channels' and the monitor's typed status (`ChannelStatus`,
/// `MonitorOverview`), one `AlertTracker` per channel and condition:
/// - `silence`: the level stayed below `belowDBFS` for `forSeconds`, timed by the audio's own seconds
///   (`ChannelStatus.levelSeconds`), to the second;
/// - `source_down`: the input is starting or reconnecting (a stream that is refused or ends, a JACK server that
///   went away) for `forSeconds`, counted from the last audio heard;
/// - `lagging`: the matcher is more than `overSeconds` behind real time for `forSeconds`;
/// - `no_catalog`: nothing from the catalog on air for `noCatalogSeconds`, counted from the end of the last play;
/// - `play_log_unwritable` (the monitor's, no channel): the last write to the play log failed, for `forSeconds`.
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
  private var monitorTracker: AlertTracker?
  /// The monitor's own conditions `monitorTracker` follows.
  private var monitorForSeconds: Double?
  private var monitorHoldSeconds: Double
  private var monitorDetail = ""
  /// When evaluation began: nothing before it was watched.
  private let startedAt: Date

  /// The open alerts, by channel (nil: the monitor's own), oldest first.
  private(set) var active: [String?: [ActiveAlert]] = [:]

  /// - Parameters:
  ///   - conditions: each channel's, by name.
  ///   - monitor: the monitor's own (`playLogUnwritableForSeconds` and `holdSeconds`).
  init(conditions: [String: AlertConditions], monitor: AlertConditions, startedAt: Date = Date()) {
    channels = conditions.mapValues(Self.channel)
    monitorForSeconds = monitor.playLogUnwritableForSeconds
    monitorHoldSeconds = monitor.holdSeconds
    monitorTracker = Self.monitorTracker(monitor)
    self.startedAt = startedAt
  }

  /// The tracker of the monitor's own alert under `monitor`'s conditions; nil when it is off.
  private static func monitorTracker(_ monitor: AlertConditions) -> AlertTracker? {
    monitor.playLogUnwritableForSeconds.map { AlertTracker(forSeconds: $0, holdSeconds: monitor.holdSeconds) }
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
    if let monitor,
      monitor.playLogUnwritableForSeconds != monitorForSeconds || monitor.holdSeconds != monitorHoldSeconds
    {
      if let change = monitorTracker?.finish(at: now.timeIntervalSince1970) {
        events.append(event(change, channel: nil, kind: .playLogUnwritable, detail: monitorDetail, now: now))
      }
      monitorForSeconds = monitor.playLogUnwritableForSeconds
      monitorHoldSeconds = monitor.holdSeconds
      monitorTracker = Self.monitorTracker(monitor)
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
    if var tracker = monitorTracker {
      // Where the writes wait: a spool that cannot be written either leaves them in memory only.
      let inMemoryOnly = max(0, overview.storeBacklog - overview.storeSpooled)
      let detail =
        "the play log \(overview.databasePath) cannot be written; \(overview.storeBacklog) writes wait for it "
        + "(\(overview.storeSpooled) in its spool"
        + (inMemoryOnly > 0 ? ", \(inMemoryOnly) in memory only: the spool cannot be written either)" : ")")
      if overview.storeFailing && !tracker.isOpen { monitorDetail = detail }
      if let change = tracker.observe(overview.storeFailing, at: now.timeIntervalSince1970) {
        events.append(event(change, channel: nil, kind: .playLogUnwritable, detail: monitorDetail, now: now))
      }
      monitorTracker = tracker
    }
    return events
  }

  /// Closes every open alert at `now` (the monitor stops): an alert is never left open by a clean stop.
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
    if let change = monitorTracker?.finish(at: now.timeIntervalSince1970) {
      events.append(event(change, channel: nil, kind: .playLogUnwritable, detail: monitorDetail, now: now))
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
