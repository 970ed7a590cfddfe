import Foundation
import Reports

/// A node that started while its PostgreSQL server was down could not check that its channels were its own; when
/// it connects, a channel that another live node holds is refused (`PostgreSQLPlayLogStore`), and stopped here as
/// a reload stops a removed channel: its plays are that node's to write. So is a channel a reload adds that another
/// live node holds. It waits on this node (`waiting`, `WaitingChannel`): after each heartbeat the play log writer asks
/// whether its holder has ended (`PlayLogStorage.freedChannels()`), and once it has, this node starts the channel
/// again and takes it over (`takeOver(channels:)`), as a reload that adds it: the claim recovers that node's open
/// plays there and writes its downtime. A reload that lists the channel starts it again too.
extension Monitor {
  /// Stops the channels named by `errors` (``PlayLogNodeError/channelHeld(channel:node:url:)``), keeping each one's
  /// configuration for `takeOver(channels:)`. Any thread but the play log writer's (a stop waits for the writer);
  /// after `stop()` it does nothing.
  func stopChannels(refusedBy errors: [PlayLogNodeError]) {
    lifecycle.withLock { state in
      guard !state.stopped else { return }
      for error in errors {
        guard case .channelHeld(let name, let holder, _) = error else { continue }
        let stopped = running.withLock { running -> (ChannelPipeline, ChannelConfiguration)? in
          guard let index = running.pipelines.firstIndex(where: { $0.name == name }),
            let channel = running.configuration.channels.first(where: { $0.name == name })
          else { return nil }
          running.configuration.channels.removeAll { $0.name == name }
          return (running.pipelines.remove(at: index), channel)
        }
        guard let (pipeline, channel) = stopped else { continue }
        pipeline.input.stop()
        workers?.remove(pipeline)
        waiting.withLock { $0[name] = WaitingChannel(configuration: channel, heldBy: holder, since: Date()) }
        log.line("stopped: \(error); this node takes it over when that node ends", channel: name, severity: .warning)
      }
      alerts.update(configuration: configuration)
    }
  }

  /// Starts again the channels among `names` that were stopped because another node held them, now that it has
  /// ended, as a reload that adds them: their claim takes them over (a node that holds one again by then refuses
  /// it, and it waits again). Any thread but the play log writer's; after `stop()` it does nothing.
  func takeOver(channels names: [String]) {
    lifecycle.withLock { state in
      guard !state.stopped, workers != nil else { return }
      let channels = waiting.withLock { waiting in names.compactMap { waiting.removeValue(forKey: $0)?.configuration } }
      guard !channels.isEmpty else { return }
      for channel in channels {
        log.line("the node that held it has ended: taking it over", channel: channel.name, severity: .warning)
      }
      let running = configuration
      var target = running
      target.channels += channels
      apply(
        ConfigurationReload(from: running, to: target), removedChannelGaps: &state.removedChannelGaps,
        trigger: "takeover", waiting: waiting.withLock { $0.keys.sorted() })
    }
  }
}
