import Foundation

/// Another node of a PostgreSQL deployment as its heartbeats in the play log show it: the channels it listens to,
/// and when it last wrote its heartbeat. A running node writes it every few seconds and clears it when it stops, so a
/// node whose heartbeat is no longer written is down (killed, crashed, hung, powered off or cut off from the server):
/// nothing from its channels reaches the play log, until it starts again or another node takes them over, and a node
/// whose channels were all taken over is still down, one machine fewer, until it starts again or is retired
/// (``PlayLogStorage/peerNodes()``).
///
/// A value type: safe to pass between threads.
public struct PeerNode: Sendable, Equatable {
  /// The node's name (`--node`).
  public var node: String
  /// The channels of its heartbeat that are still its own, sorted: no other node has taken them over.
  public var channels: [String]
  /// The channels of its last heartbeat that another node holds now, by name, each with that node: a node that
  /// ended without stopping had them taken over (``PlayLogStorage/listen(to:)``, `database.standby`).
  public var takenOver: [String: String]
  /// When it last wrote its heartbeat, by the server's clock (the same for every node that reads it).
  public var lastHeartbeat: Date
  /// How long before the check that was, in seconds, by the server's clock: a running node's is under its heartbeat
  /// interval, give or take a write that waited.
  public var silentSeconds: Double
  /// True when the node's session with the server has ended (its lease is free, and another node that lists its
  /// channels takes them over); false while a session still holds its lease (the node hangs, or the server has not
  /// yet seen its connection go, as in the first minute after a power cut, until the session's TCP keepalive gives
  /// up on it: `PostgreSQLConnection.keepaliveParameters`).
  public var sessionEnded: Bool

  public init(
    node: String, channels: [String], takenOver: [String: String] = [:], lastHeartbeat: Date, silentSeconds: Double,
    sessionEnded: Bool
  ) {
    self.node = node
    self.channels = channels
    self.takenOver = takenOver
    self.lastHeartbeat = lastHeartbeat
    self.silentSeconds = silentSeconds
    self.sessionEnded = sessionEnded
  }
}
