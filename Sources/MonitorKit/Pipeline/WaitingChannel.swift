import Foundation

/// A channel of the configuration that does not run on this node because another live node of its PostgreSQL play
/// log holds it: it waits, and this node takes it over once that node has ended (`Monitor.takeOver(channels:)`), or
/// a reload that lists it tries it again. The console, `GET /api/v1/channels` and `/metrics` show it, so that a
/// standby node's channels are seen waiting, not missing.
///
/// A value type: safe to pass between threads.
struct WaitingChannel: Sendable, Equatable {
  /// Its configuration, started as it is when the channel is taken over.
  var configuration: ChannelConfiguration
  /// The node that holds it.
  var heldBy: String
  /// When this node stopped it, or found it held at its start.
  var since: Date

  var name: String { configuration.name }
}
