/// What a configuration reload (SIGHUP) changes, worked out from the running configuration and the one just read:
/// the channels to start, to stop and to restart (by name), those left running untouched, and what waits for the
/// next start. `applied` is the configuration the monitor runs with afterwards.
///
/// Applied at once: stream and file channels added, removed or changed (source, time zone, or the matcher settings
/// they run with, the global `matcher` section's included), the alert conditions, every channel's and the
/// monitor's own (without a restart, JACK channels' too: `AlertWatcher.update`), the alerts' webhooks and command
/// (`AlertWatcher.update`: one removed or changed first delivers what it holds), the catalog path, the `reports`
/// section and the HTTP API's token (`HTTPService.update`). Applied at the next start only, each with a notice: the
/// play log and its spool (the monitor holds them open and locked), the worker threads, the `jack` section, the
/// HTTP API's address (its socket is open), and any change to a JACK channel (JACK ports are registered when the
/// client starts); `applied` keeps the running values for these, and a JACK channel keeps the configuration it
/// started with.
///
/// Threads: a value; any thread.
struct ConfigurationReload: Equatable {
  /// Channels to start, in the order of the new configuration.
  var added: [ChannelConfiguration] = []
  /// Names of channels to stop.
  var removed: [String] = []
  /// Channels to stop and start again with their new configuration.
  var changed: [ChannelConfiguration] = []
  /// Names of channels left running as they are.
  var unchanged: [String] = []
  /// What changes only at the next start, one sentence each.
  var deferred: [String] = []
  /// The configuration after the reload.
  var applied: MonitorConfiguration

  init(from running: MonitorConfiguration, to read: MonitorConfiguration) {
    var applied = read
    func keep<Value: Equatable>(_ key: WritableKeyPath<MonitorConfiguration, Value>, _ name: String) {
      guard read[keyPath: key] != running[keyPath: key] else { return }
      applied[keyPath: key] = running[keyPath: key]
      deferred.append("\(name) changed: it takes effect at the next start")
    }
    self.applied = running
    keep(\.databasePath, "databasePath")
    keep(\.spoolDirectory, "spoolDirectory")
    keep(\.workerThreads, "workerThreads")
    keep(\.jack, "the jack section")
    keep(\.http.listen, "http.listen")

    let old = Dictionary(running.channels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let new = Set(read.channels.map(\.name))
    var channels: [ChannelConfiguration] = []
    for channel in read.channels {
      guard let before = old[channel.name] else {
        if case .jack = channel.source {
          deferred.append("channel \(channel.name) (JACK) added: it starts at the next start")
        } else {
          added.append(channel)
          channels.append(channel)
        }
        continue
      }
      // A channel's alert conditions change without a restart (`AlertWatcher.update`): only what its pipeline runs
      // with counts here.
      var alike = channel
      alike.alertOverrides = before.alertOverrides
      let same = alike == before && read.matcherSettings(for: channel) == running.matcherSettings(for: before)
      if same {
        unchanged.append(channel.name)
        channels.append(channel)
      } else if Self.isJack(channel) || Self.isJack(before) {
        deferred.append("channel \(channel.name) (JACK) changed: the change takes effect at the next start")
        unchanged.append(channel.name)
        channels.append(before)
      } else {
        changed.append(channel)
        channels.append(channel)
      }
    }
    for channel in running.channels where !new.contains(channel.name) {
      if Self.isJack(channel) {
        deferred.append("channel \(channel.name) (JACK) removed: it stops at the next start")
        unchanged.append(channel.name)
        channels.append(channel)
      } else {
        removed.append(channel.name)
      }
    }
    applied.channels = channels
    self.applied = applied
  }

  /// Whether anything changes for the channels.
  var changesChannels: Bool { !added.isEmpty || !removed.isEmpty || !changed.isEmpty }

  private static func isJack(_ channel: ChannelConfiguration) -> Bool {
    if case .jack = channel.source { return true }
    return false
  }
}
