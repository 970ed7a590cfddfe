/// A node of a PostgreSQL play log cannot start: another monitor runs as the same node, or another live node holds
/// one of its channels.
///
/// A value type: safe to pass between threads.
public enum PlayLogNodeError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Another monitor holds node `node`'s lease on the play log.
  case nodeRunning(node: String, url: String)
  /// Node `node`, which is running, monitors `channel`.
  case channelHeld(channel: String, node: String, url: String)

  public var description: String {
    switch self {
    case .nodeRunning(let node, let url):
      "another monitor runs as node \(node) on the play log \(url): stop it, or give this one its own name with "
        + "--node NAME (each machine is one node)"
    case .channelHeld(let channel, let node, let url):
      "channel \(channel) is monitored by node \(node), which is running, on the play log \(url): a channel is "
        + "monitored by one node at a time. Remove it from this node's channels, or stop it on \(node) first"
    }
  }
}
