import Foundation
import Reports

/// A node that started while its PostgreSQL server was down could not check that its channels were its own; when
/// it connects, a channel that another live node holds is refused (`PostgreSQLPlayLogStore`), and stopped here as
/// a reload stops a removed channel: its plays are that node's to write. So is a channel a reload adds that another
/// live node holds. It stays stopped until the node restarts, or a reload starts it again and its claim is tried
/// again.
extension Monitor {
  /// Stops the channels named by `errors` (``PlayLogNodeError/channelHeld(channel:node:url:)``). Any thread but the
  /// play log writer's (a stop waits for the writer); after `stop()` it does nothing.
  func stopChannels(refusedBy errors: [PlayLogNodeError]) {
    lifecycle.withLock { state in
      guard !state.stopped else { return }
      for error in errors {
        guard case .channelHeld(let name, _, _) = error else { continue }
        let stopped = running.withLock { running -> ChannelPipeline? in
          guard let index = running.pipelines.firstIndex(where: { $0.name == name }) else { return nil }
          running.configuration.channels.removeAll { $0.name == name }
          return running.pipelines.remove(at: index)
        }
        guard let stopped else { continue }
        stopped.input.stop()
        workers?.remove(stopped)
        log.line("stopped: \(error)", channel: name, severity: .error)
      }
      alerts.update(configuration: configuration)
    }
  }
}
