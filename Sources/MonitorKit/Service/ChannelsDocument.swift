import Foundation
import Reports

/// The `GET /api/v1/channels` document: every channel as the console sees it, the catalog and play log, the
/// monitor's own open alerts, the other nodes of a PostgreSQL deployment as this node last checked them, and the
/// channels that wait for another node to end. Also the
/// `data` of the event stream's `channels` messages.
enum ChannelsDocument {
  /// A running channel whose peak level stays below this is `silent`: the default silence threshold.
  static let silentBelowDBFS: Float = -50

  static func make(_ readings: any MonitorReadings, now: Date = Date()) -> JSONValue {
    let overview = readings.overview
    return .object([
      ("generatedAt", .time(now)),
      ("startedAt", .time(overview.startedAt)),
      (
        "catalog",
        .object([("items", .integer(Int64(overview.catalogItems))), ("hours", .number(overview.catalogHours))])
      ),
      (
        "playLog",
        .object([
          ("path", .string(overview.databasePath)), ("writable", .bool(!overview.storeFailing)),
          ("pendingWrites", .integer(Int64(overview.storeBacklog))),
        ])
      ),
      ("alerts", alerts(overview.alerts)),
      ("nodes", .array(overview.peerNodes.map { node(overview, $0, now: now) })),
      (
        "waiting",
        .array(
          overview.waitingChannels.map {
            .object([("channel", .string($0.name)), ("heldBy", .string($0.heldBy)), ("since", .time($0.since))])
          })
      ),
      ("channels", .array(readings.statuses.map(channel))),
    ])
  }

  /// Open alerts: kind, since when, detail.
  static func alerts(_ alerts: [ActiveAlert]) -> JSONValue {
    .array(
      alerts.map {
        .object([("kind", .string($0.kind.rawValue)), ("since", .time($0.since)), ("detail", .string($0.detail))])
      })
  }

  /// Another node: its state in one word (``nodeState(_:heartbeatAgeSeconds:)``), its channels, those another node
  /// took over (by channel, the node that holds it now), its last heartbeat (the server's clock), how long ago that
  /// was at `now`, and whether its session with the server has ended.
  private static func node(_ overview: MonitorOverview, _ peer: PeerNode, now: Date) -> JSONValue {
    let ageSeconds = overview.heartbeatAgeSeconds(of: peer, at: now)
    return .object([
      ("node", .string(peer.node)), ("state", .string(nodeState(peer, heartbeatAgeSeconds: ageSeconds))),
      ("channels", .array(peer.channels.map(JSONValue.string))),
      ("takenOver", .object(peer.takenOver.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })),
      ("lastHeartbeat", .time(peer.lastHeartbeat)),
      ("heartbeatAgeSeconds", .number(ageSeconds)),
      ("sessionEnded", .bool(peer.sessionEnded)),
    ])
  }

  /// Another node's state in one word: `ended` when its session with the server has ended (it was killed, crashed or
  /// lost the server: a running node's session holds its lease), `silent` when its session is open but it has written
  /// no heartbeat for `AlertSettings.minNodeDownSeconds` (three heartbeats: it hangs, or lost its power or network
  /// under a minute ago), `running` otherwise. The `node_down` alert has its own time (`alerts.nodeDown.forSeconds`).
  static func nodeState(_ peer: PeerNode, heartbeatAgeSeconds: Double) -> String {
    if peer.sessionEnded { return "ended" }
    return heartbeatAgeSeconds >= AlertSettings.minNodeDownSeconds ? "silent" : "running"
  }

  /// The channel's state in one word: `starting`, `listening`, `silent`, `lagging`, `reconnecting` or `stopped`.
  static func state(_ status: ChannelStatus) -> String {
    switch status.input {
    case .starting: return "starting"
    case .reconnecting: return "reconnecting"
    case .ended: return "stopped"
    case .running:
      if status.laggingSince != nil { return "lagging" }
      return status.peakLevelDB < silentBelowDBFS ? "silent" : "listening"
    }
  }

  /// The peak level in dBFS, null for digital silence, never above 0.
  static func level(_ status: ChannelStatus) -> JSONValue {
    status.peakLevelDB.isFinite ? .number(Double(min(status.peakLevelDB, 0))) : .null
  }

  /// Unknown music on air: since when and its cluster (null until known); null when there is none.
  static func unknownMusic(_ status: ChannelStatus) -> JSONValue {
    .optional(status.unknownMusic) { music in
      .object([("since", .time(music.since)), ("cluster", .optional(music.cluster) { .integer($0) })])
    }
  }

  private static func channel(_ status: ChannelStatus) -> JSONValue {
    let onAir = status.current.map { play -> JSONValue in
      let token = status.recentPlays.last { $0.end == nil && $0.title == play.title && $0.artist == play.artist }?.id
      return .object([
        ("playId", .optional(token) { .integer(Int64(truncatingIfNeeded: $0)) }),
        ("title", .string(play.title)), ("artist", .string(play.artist)), ("kind", .string(play.kind)),
        ("start", .time(play.start)), ("offsetSeconds", .number(play.referenceOffsetSeconds)),
        ("speed", .number(play.speed)), ("confidence", .number(play.confidence)),
      ])
    }
    return .object([
      ("name", .string(status.name)), ("source", .string(status.source)), ("state", .string(state(status))),
      ("levelDBFS", level(status)), ("onAir", .array(onAir)), ("unknownMusic", unknownMusic(status)),
      ("plays", .integer(Int64(status.playCount))),
      ("overruns", .integer(Int64(status.overrunCount))), ("gaps", .integer(Int64(status.gapCount))),
      ("reconnects", .integer(Int64(status.reconnectCount))), ("lagSeconds", .number(status.lagSeconds)),
      ("alerts", alerts(status.alerts)),
    ])
  }
}
