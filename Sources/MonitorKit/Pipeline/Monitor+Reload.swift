import Foundation
import Matcher

/// SIGHUP: the whole configuration read again and applied to the running monitor (`ConfigurationReload` says what
/// changes): channels removed stop (each records a gap, which ends when a reload or a start listens to it again),
/// channels changed stop and start again (counting on from their counts before:
/// `ChannelPipeline.continueCounts`), channels added start, each on its own (their running plays end at the last
/// audio heard, as at a stop), while every other channel runs on untouched, its pipeline and running plays kept; a
/// PostgreSQL play log is told the channels (`PlayLogWriter.listen(to:)`): the node claims those added, and one
/// that another live node holds is stopped (`stopChannels(refusedBy:)`), and it gives up those removed. The
/// catalog reloads as well (the new file when `catalogPath` changed), as it does on its own, running plays kept,
/// unless its file is unchanged since it was loaded (`Catalog.isUnchangedFile`). The `unknown` section's clip folder,
/// retention and kinds of catalog plays clipped apply to the clips written from then on (clips turned on when the
/// monitor started without them wait for the next start: the channels keep no audio for them). A configuration that
/// cannot be read or is not valid changes nothing but the catalog: the running configuration stays, and the log says
/// why.
extension Monitor {
  /// Reads the configuration with `load` and applies it. Any thread, while the monitor runs (it waits for a
  /// reload under way; after `stop()` it does nothing).
  /// - Returns: whether a configuration was read and applied (`configuration` is then the one it runs with).
  @discardableResult
  func reload(loading load: () throws -> MonitorConfiguration) -> Bool {
    lifecycle.withLock { state in
      guard !state.stopped, workers != nil else { return false }
      let read: MonitorConfiguration
      do {
        read = try load()
      } catch {
        log.line("SIGHUP: configuration not reloaded, the running one stays: \(error)", severity: .error)
        reloadCatalog()
        return false
      }
      // The configuration read decides: a channel stopped because another node held it starts again if it lists it
      // (the reload adds it), and stops waiting if it does not, which the play log is told even when the reload
      // adds and removes nothing else.
      let dropped = waiting.withLock { waiting in
        defer { waiting = [:] }
        return waiting.values.filter { old in !read.channels.contains { $0.name == old.name } }
          .sorted { $0.name < $1.name }
      }
      for channel in dropped {
        log.line(
          "SIGHUP: no longer in the configuration: stops waiting for node \(channel.heldBy) to end",
          channel: channel.name)
      }
      apply(
        ConfigurationReload(from: configuration, to: read), removedChannelGaps: &state.removedChannelGaps,
        listening: !dropped.isEmpty)
      return true
    }
  }

  /// Applies `change`, for `trigger` (what the log's lines begin with). A channel it removes records a gap
  /// (`removedChannelGaps` keeps its start), and a channel it adds takes its gap over. The play log is told the
  /// channels that run, and `waiting` (channels stopped because another node holds them, which it goes on
  /// claiming, so that it asks whether those nodes have ended), when channels were added or removed, or with
  /// `listening` (waiting channels were dropped). Inside `lifecycle`'s lock.
  func apply(
    _ change: ConfigurationReload, removedChannelGaps: inout [String: Date], trigger: String = "SIGHUP",
    waiting: [String] = [], listening: Bool = false
  ) {
    var applied = change.applied
    let running = self.running.withLock { $0 }
    var catalog = running.catalog
    var catalogLoaded = false
    let catalogUnchanged =
      applied.catalogPath == running.configuration.catalogPath
      && catalog.isUnchangedFile(at: applied.catalogPath)
    do {
      if !catalogUnchanged {
        catalog = try Catalog.load(from: URL(fileURLWithPath: applied.catalogPath), ownCopy: true)
        catalogLoaded = true
      }
    } catch {
      log.line(
        "\(trigger): catalog \(applied.catalogPath) not reloaded, the running one stays: \(error)", severity: .error)
      applied.catalogPath = running.configuration.catalogPath
    }
    for note in change.deferred { log.line("\(trigger): \(note)", severity: .warning) }
    if let clips {
      clips.update(settings: applied.unknown)
    } else if applied.unknown.clipsDirectory != nil {
      log.line(
        "\(trigger): unknown.clipsDirectory set: clips are kept from the next start (the channels keep no audio for "
          + "them until then)", severity: .warning)
      applied.unknown = running.configuration.unknown
    }

    var pipelines = Dictionary(running.pipelines.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var replaced: [String: ChannelPipeline] = [:]
    for name in change.removed + change.changed.map(\.name) {
      guard let pipeline = pipelines.removeValue(forKey: name) else { continue }
      replaced[name] = pipeline
      let listening = pipeline.input.status != .ended
      pipeline.input.stop()
      workers?.remove(pipeline)
      if listening && change.removed.contains(name) {
        removedChannelGaps[name] = pipeline.recordStopped(at: Date(), detail: ChannelPipeline.removedDetail)
      }
      log.line(
        change.removed.contains(name)
          ? "removed from the configuration: stopped; its running plays ended at the last audio heard"
          : "changed in the configuration: stopped, starting again with the new settings",
        channel: name)
    }
    if catalogLoaded { for pipeline in pipelines.values { pipeline.reload(catalog: catalog) } }
    var failed: Set<String> = []
    for channel in change.added + change.changed {
      do {
        let pipeline = try Self.makePipeline(
          channel, configuration: applied, catalog: catalog, jack: jack, writer: writer, log: log, clusters: clusters,
          clips: clips)
        if let earlier = replaced[channel.name] { pipeline.continueCounts(from: earlier) }
        if let gapStart = removedChannelGaps[channel.name] { pipeline.continueGap(from: gapStart) }
        try pipeline.input.start()
        removedChannelGaps[channel.name] = nil
        workers?.add(pipeline)
        pipelines[channel.name] = pipeline
        log.line("listening to \(pipeline.input.sourceDescription)", channel: channel.name)
      } catch {
        log.line(
          "not started: \(error); fix the channel and send SIGHUP again", channel: channel.name, severity: .error)
        failed.insert(channel.name)
      }
    }
    // A channel that could not start is left out, so that the next reload tries it again.
    applied.channels.removeAll { failed.contains($0.name) }
    if listening || !change.added.isEmpty || !change.removed.isEmpty {
      writer.listen(to: applied.channels.map(\.name) + waiting)
    }
    let ordered = applied.channels.compactMap { pipelines[$0.name] }
    self.running.withLock { $0 = (applied, catalog, ordered) }
    catalogInfo.withLock { $0 = catalog.info() }
    alerts.update(configuration: applied)

    func names(_ list: [String]) -> String { list.isEmpty ? "" : " (\(list.joined(separator: ", ")))" }
    log.line(
      "\(trigger): configuration reloaded: \(change.added.count) channels added\(names(change.added.map(\.name))), "
        + "\(change.removed.count) removed\(names(change.removed)), "
        + "\(change.changed.count) changed\(names(change.changed.map(\.name))), "
        + "\(change.unchanged.count) untouched; catalog \(applied.catalogPath)"
        + (catalogLoaded
          ? " reloaded: \(catalog.tracks.count) items"
          : catalogUnchanged ? " unchanged since it was loaded: kept" : " kept"))
  }
}
