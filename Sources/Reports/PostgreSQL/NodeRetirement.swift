/// What retiring a node that ended without stopping left in the play log
/// (``PostgreSQLPlayLogStore/retire(at:)``, `broadcast-monitor db retire`).
///
/// A value type: safe to pass between threads.
public struct NodeRetirement: Sendable, Equatable {
  /// The node's plays left open, now `recovered` (their end is the last the node wrote), oldest start first.
  public var recoveredPlays: [Int64] = []
  /// The channels still the node's own (no other node took them over), given up: nothing monitors them now, and a
  /// node whose configuration lists them may claim them. Sorted.
  public var releasedChannels: [String] = []
  /// The channels where a gap now starts at the node's last heartbeat, open until a node monitors the channel again.
  /// Sorted.
  public var openedGaps: [String] = []
  /// The node's alerts left open (those of its channels, and its own), now closed.
  public var closedAlerts = 0
  /// Whether the node had a heartbeat: the other nodes saw it down, and their `node_down` alert closes at their next
  /// check.
  public var hadHeartbeat = false

  public init() {}

  /// True when the node left nothing in the play log to retire (it was retired already, or never ran).
  public var isEmpty: Bool {
    recoveredPlays.isEmpty && releasedChannels.isEmpty && openedGaps.isEmpty && closedAlerts == 0 && !hadHeartbeat
  }
}
