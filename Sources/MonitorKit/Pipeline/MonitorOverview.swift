import Foundation
import Reports

/// The monitor as a whole, for the console's header: how long it has run, the catalog, the play log's health and
/// the JACK server. Per-channel state is in `ChannelStatus`.
///
/// A value type: safe to pass between threads.
struct MonitorOverview: Sendable, Equatable {
  /// When `Monitor.start()` ran.
  var startedAt: Date
  var catalogPath: String
  var catalogItems: Int
  /// Hours of reference audio in the catalog.
  var catalogHours: Double
  var databasePath: String
  /// Plays and events waiting to be written (more than a few only while the play log cannot be written).
  var storeBacklog: Int
  /// True while the last write to the play log failed; the waiting writes are retried.
  var storeFailing: Bool
  /// The JACK server, nil when no channel uses JACK.
  var jack: Jack?
  /// The monitor's own open alerts (the play log cannot be written, a node is down); the channels' are in
  /// `ChannelStatus.alerts`.
  var alerts: [ActiveAlert] = []
  /// Why the play log takes no writes now, nil while it takes them (`storeFailing` false).
  var playLogOutage: PlayLogOutage? = nil
  /// Of `storeBacklog`, the writes kept in the spool file (they survive a stop or a crash).
  var storeSpooled = 0
  /// The other nodes of a PostgreSQL deployment, as the play log writer last found them after writing this node's
  /// heartbeat (`PlayLogStorage.peerNodes()`); empty with SQLite.
  var peerNodes: [PeerNode] = []
  /// When that check was made; nil before the first one, and it stays as it was while the play log is failing.
  var peerNodesCheckedAt: Date? = nil
  /// The channels of the configuration that wait for the node that holds them to end, by name.
  var waitingChannels: [WaitingChannel] = []

  /// How long before `now` `peer` last wrote its heartbeat, in whole seconds: its silence at the check, plus the
  /// time since the check.
  func heartbeatAgeSeconds(of peer: PeerNode, at now: Date) -> Double {
    (peer.silentSeconds + max(0, peerNodesCheckedAt.map { now.timeIntervalSince($0) } ?? 0)).rounded()
  }

  struct Jack: Sendable, Equatable {
    /// The server's name, nil for the default server.
    var serverName: String?
    var clientName: String
    /// True while the client is open; false while the server is away.
    var connected: Bool
    var sampleRateHz: Int?
    var bufferFrames: Int?
    /// Xruns since the current client opened.
    var xruns: Int
  }
}
