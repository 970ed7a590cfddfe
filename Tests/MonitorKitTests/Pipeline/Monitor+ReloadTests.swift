import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// SIGHUP in a running monitor (`Monitor`, in this process): what a reloaded configuration changes beyond the
/// channels (the channels are `RunCommandReloadTests`' part).
@Suite(
  "Monitor reload", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct MonitorReloadTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }

  init() throws {
    folder = try TemporaryDirectory(prefix: "monitor-reload")
    try CLI.makeCatalog(at: catalog)
  }

  func configuration(clips: UnknownClipSettings) -> MonitorConfiguration {
    let channel = ChannelConfiguration(
      name: "fm", source: .file(path: Fixtures.music("catalog-b.ogg").path, loop: true))
    var configuration = MonitorConfiguration(
      catalogPath: catalog.path, databasePath: folder.file("plays.sqlite").path, workerThreads: 1,
      channels: [channel])
    configuration.unknown = clips
    return configuration
  }

  /// Node b's configurations on the PostgreSQL play log `url`: channel fm alone, and fm with am, which node a holds
  /// in the tests that use them.
  func postgreSQLConfigurations(url: String) -> (fm: MonitorConfiguration, both: MonitorConfiguration) {
    var fm = configuration(clips: UnknownClipSettings())
    fm.databasePath = url
    fm.database.node = "b"
    fm.spoolDirectory = folder.url.path
    var both = fm
    both.channels.append(
      ChannelConfiguration(name: "am", source: .file(path: Fixtures.music("catalog-a.ogg").path, loop: true)))
    return (fm, both)
  }

  @Test("a reload applies the clips' new folder and retention, and keeps the channel running")
  func clipSettings() throws {
    let started = UnknownClipSettings(clipsDirectory: folder.file("clips").path)
    let monitor = try Monitor(configuration: configuration(clips: started), log: MonitorLog(write: { _ in }))
    try monitor.start()
    defer { _ = monitor.stop() }
    let pipeline = monitor.pipelines.first

    let moved = UnknownClipSettings(
      clipsDirectory: folder.file("elsewhere").path, retentionDays: 14, retentionGigabytes: 2)
    monitor.reload { configuration(clips: moved) }
    #expect(monitor.clips?.settings == moved)
    #expect(monitor.configuration.unknown == moved)
    #expect(monitor.pipelines.first === pipeline, "the channel runs on untouched")

    let off = UnknownClipSettings(clipsDirectory: nil)
    monitor.reload { configuration(clips: off) }
    #expect(monitor.clips?.settings.clipsDirectory == nil, "clips turned off at once")
  }

  @Test("a channel restarted by a reload counts on: its plays, gaps and recent plays carry over (counters never drop)")
  func restartedChannelCountsOn() throws {
    let monitor = try Monitor(
      configuration: configuration(clips: UnknownClipSettings()), log: MonitorLog(write: { _ in }))
    try monitor.start()
    defer { _ = monitor.stop() }
    let first = try #require(monitor.pipelines.first)
    #expect(Wait.until(seconds: 60) { first.status.playCount >= 1 }, "the looped catalog song is found")
    var moved = configuration(clips: UnknownClipSettings())
    moved.channels[0].timeZone = "Pacific/Chatham"
    monitor.reload { moved }
    let second = try #require(monitor.pipelines.first)
    #expect(second !== first, "a new time zone restarts the channel")
    let before = first.status
    let after = second.status
    #expect(after.playCount >= before.playCount && before.playCount >= 1, "\(before.playCount) → \(after.playCount)")
    #expect(after.gapCount >= before.gapCount)
    #expect(after.recentPlays.map(\.id).starts(with: before.recentPlays.map(\.id)), "\(after.recentPlays)")
  }

  @Test(
    "a channel a reload removes records a gap from its last audio; a reload that adds it back ends it at its first audio"
  )
  func removedChannelGap() throws {
    let fm = configuration(clips: UnknownClipSettings())
    var both = fm
    both.channels.append(
      ChannelConfiguration(name: "am", source: .file(path: Fixtures.music("catalog-a.ogg").path, loop: true)))
    let monitor = try Monitor(configuration: both, log: MonitorLog(write: { _ in }))
    try monitor.start()
    defer { _ = monitor.stop() }
    let am = try #require(monitor.pipelines.last)
    #expect(Wait.until(seconds: 60) { am.status.lastAudioTime != nil })
    func gaps() throws -> [String] {
      try Subprocess.run(
        "/usr/bin/sqlite3",
        [
          folder.file("plays.sqlite").path,
          "SELECT c.name, e.start_ms, coalesce(e.end_ms - e.start_ms >= 0, 'open'), e.detail FROM events e "
            + "JOIN channels c ON c.id = e.channel_id WHERE e.kind = 'gap' ORDER BY e.id",
        ]
      ).stdout.split(separator: "\n").map(String.init)
    }
    let removing = Date().timeIntervalSince1970
    monitor.reload { fm }
    let lastAudio = try #require(am.status.lastAudioTime)
    #expect(monitor.writer.waitUntilWritten(timeoutSeconds: 30))
    let removed = try gaps()
    let fields = removed.first?.split(separator: "|", maxSplits: 3).map(String.init) ?? []
    #expect(removed.count == 1 && fields.count == 4, "\(removed)")
    // From the last audio, or from the removal when a file's audio ran ahead of the clock.
    let start = try #require(fields.count == 4 ? Int64(fields[1]) : nil)
    #expect(
      start <= Int64((lastAudio * 1000).rounded()) + 1
        && start >= Int64((min(lastAudio, removing) * 1000).rounded()) - 1,
      "\(removed), last audio \(lastAudio)")
    #expect(fields == ["am", "\(start)", "open", ChannelPipeline.removedDetail])
    monitor.reload { both }
    #expect(monitor.pipelines.map(\.name) == ["fm", "am"])
    let ended = ["am|\(start)|1|\(ChannelPipeline.removedDetail)"]
    #expect(Wait.until(seconds: 60) { (try? gaps()) == ended }, "\((try? gaps()) ?? [])")
  }

  @Test(
    "on PostgreSQL, a channel a reload adds that a live node holds is stopped, and one it removes is given up to other nodes"
  )
  func channelsClaimedOnPostgreSQL() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let other = try PostgreSQLPlayLogStore(url: url, node: "a")
    try other.claim(channels: ["am"])
    let (fm, both) = postgreSQLConfigurations(url: url)
    let lines = LineCollector()
    let monitor = try Monitor(configuration: fm, log: MonitorLog(write: { lines.append($0) }))
    try monitor.start()
    defer { _ = monitor.stop() }
    func owners() throws -> String { try server.channelOwners(database: "plays") }

    monitor.reload { both }
    #expect(
      Wait.until(seconds: 30) {
        lines.text.contains("[am] stopped: channel am is monitored by node a, which is running")
      }, "\(lines.text)")
    #expect(Wait.until(seconds: 10) { monitor.pipelines.map(\.name) == ["fm"] })
    #expect(try owners() == "am=a\nfm=b\n")

    var am = both
    am.channels.removeFirst()
    try other.close()
    // The server ends the closed session, and frees node a's lease, a moment after the connection closes.
    let probe = try PostgreSQLPlayLogStore(url: url, node: "probe")
    #expect(try Wait.until(seconds: 10) { try probe.leaseIsFree(of: "a") })
    monitor.reload { am }  // fm removed; am, stopped above, tried again now that node a is gone
    #expect(Wait.until(seconds: 30) { (try? owners()) == "am=b\n" }, "\((try? owners()) ?? "")")
    #expect(monitor.pipelines.map(\.name) == ["am"])
    #expect(
      Wait.until(seconds: 30) { lines.text.contains("channel am taken over from node a, whose session had ended") },
      "the writer logs the takeover: \(lines.text)")
  }

  @Test("on PostgreSQL, a channel stopped because a live node held it is taken over once that node ends, unasked")
  func channelTakenOverWhenItsNodeEnds() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let other = try PostgreSQLPlayLogStore(url: url, node: "a")
    try other.claim(channels: ["am"])
    try other.recordHeartbeat([ChannelHeartbeat(channel: "am", heardThrough: Date())])
    let (fm, both) = postgreSQLConfigurations(url: url)
    let lines = LineCollector()
    let monitor = try Monitor(configuration: fm, log: MonitorLog(write: { lines.append($0) }))
    try monitor.start()
    defer { _ = monitor.stop() }
    monitor.reload { both }
    #expect(
      Wait.until(seconds: 30) {
        lines.text.contains("[am] stopped: channel am is monitored by node a, which is running")
          && lines.text.contains("; this node takes it over when that node ends")
      }, "\(lines.text)")
    #expect(Wait.until(seconds: 10) { monitor.pipelines.map(\.name) == ["fm"] })

    try other.close()  // node a is killed: the next heartbeat's check finds am free (one every 10 s)
    #expect(Wait.until(seconds: 60) { monitor.pipelines.map(\.name) == ["fm", "am"] }, "\(lines.text)")
    #expect(
      Wait.until(seconds: 30) { (try? server.channelOwners(database: "plays")) == "am=b\nfm=b\n" }, "\(lines.text)")
    #expect(lines.text.contains("[am] the node that held it has ended: taking it over"), "\(lines.text)")
    #expect(lines.text.contains("takeover: configuration reloaded: 1 channels added (am)"), "\(lines.text)")
    #expect(
      Wait.until(seconds: 30) { lines.text.contains("channel am taken over from node a, whose session had ended") },
      "\(lines.text)")
    let gaps = try server.psql(
      "SELECT count(*) FROM events e JOIN channels c ON c.id = e.channel_id "
        + "WHERE c.name = 'am' AND e.kind = 'gap' AND e.end_ms IS NOT NULL AND e.detail LIKE 'node a ended without%'",
      database: "plays")
    #expect(gaps == "1\n", "node a's downtime on am, from its heartbeat to the takeover")
  }

  @Test(
    "on PostgreSQL, a standby node starts with a channel another node holds waiting, takes it over later, and alerts that node down"
  )
  func standbyStart() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let other = try PostgreSQLPlayLogStore(url: url, node: "a")
    try other.claim(channels: ["am"])
    try other.recordHeartbeat([ChannelHeartbeat(channel: "am", heardThrough: Date())])
    var both = postgreSQLConfigurations(url: url).both
    both.alerts.overrides.nodeDown.forSeconds = 30  // the shortest, so that the test sees it open
    #expect(throws: PlayLogNodeError.channelHeld(channel: "am", node: "a", url: url)) {
      _ = try Monitor(configuration: both, log: MonitorLog(write: { _ in }))
    }
    both.database.standby = true
    let lines = LineCollector()
    let monitor = try Monitor(configuration: both, log: MonitorLog(write: { lines.append($0) }))
    #expect(monitor.pipelines.map(\.name) == ["fm"], "am waits, not started")
    #expect(
      lines.text.contains("[am] stopped: channel am is monitored by node a, which is running")
        && lines.text.contains("; this node takes it over when that node ends"), "\(lines.text)")
    try monitor.start()
    defer { _ = monitor.stop() }
    #expect(try server.channelOwners(database: "plays") == "am=a\nfm=b\n")

    try other.close()  // node a is killed
    #expect(Wait.until(seconds: 60) { monitor.pipelines.map(\.name) == ["fm", "am"] }, "\(lines.text)")
    #expect(
      Wait.until(seconds: 30) { (try? server.channelOwners(database: "plays")) == "am=b\nfm=b\n" }, "\(lines.text)")
    // Node a's only channel is this node's now; node a is still down, one machine fewer, and the alert says so.
    #expect(
      Wait.until(seconds: 90) {
        lines.text.contains("ALERT node_down: Node a has written no heartbeat since")
          && lines.text.contains(
            "; its channel am was taken over by node b. Start it again; if it is not coming back, "
              + "retire it")
      }, "\(lines.text)")
    // This node stops while node a is still down: the alert's row stays open for the nodes still running.
    #expect(monitor.stop().isEmpty)
    #expect(lines.text.contains("alert node_down stays open as this node stops"), "\(lines.text)")
    #expect(try server.psql("SELECT kind, end_ms IS NULL FROM alerts", database: "plays") == "node_down|t\n")
  }

  @Test(
    "on PostgreSQL, a waiting channel is shown as such, and a reload that no longer lists it stops the wait: it is not taken over when its node ends"
  )
  func reloadDropsWaitingChannel() throws {
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let other = try PostgreSQLPlayLogStore(url: url, node: "a")
    try other.claim(channels: ["am"])
    try other.recordHeartbeat([ChannelHeartbeat(channel: "am", heardThrough: Date())])
    var (fm, both) = postgreSQLConfigurations(url: url)
    both.database.standby = true
    fm.database.standby = true
    let lines = LineCollector()
    let monitor = try Monitor(configuration: both, log: MonitorLog(write: { lines.append($0) }))
    try monitor.start()
    defer { _ = monitor.stop() }
    #expect(monitor.overview.waitingChannels.map(\.name) == ["am"])
    #expect(monitor.overview.waitingChannels.map(\.heldBy) == ["a"])

    monitor.reload { fm }
    #expect(
      lines.text.contains("[am] SIGHUP: no longer in the configuration: stops waiting for node a to end"),
      "\(lines.text)")
    #expect(monitor.overview.waitingChannels.isEmpty)
    try other.close()  // node a is killed
    // Two of this node's checks after node a's session ended: the first one would have handed am over.
    #expect(
      Wait.until(seconds: 60) { monitor.overview.peerNodes.first { $0.node == "a" }?.sessionEnded == true },
      "\(monitor.overview.peerNodes)")
    let seen = monitor.overview.peerNodesCheckedAt
    #expect(Wait.until(seconds: 30) { monitor.overview.peerNodesCheckedAt != seen })
    #expect(monitor.pipelines.map(\.name) == ["fm"])
    #expect(!lines.text.contains("taking it over"), "\(lines.text)")
    #expect(try server.channelOwners(database: "plays") == "am=a\nfm=b\n", "am stays node a's")
  }

  @Test("clips turned on by a reload wait for the next start, with a note; the running settings stay")
  func clipsTurnedOn() throws {
    let lines = LogLines()
    let monitor = try Monitor(
      configuration: configuration(clips: UnknownClipSettings()), log: lines.log)
    try monitor.start()
    defer { _ = monitor.stop() }
    monitor.reload { configuration(clips: UnknownClipSettings(clipsDirectory: folder.file("clips").path)) }
    #expect(monitor.clips == nil)
    #expect(monitor.configuration.unknown.clipsDirectory == nil)
    #expect(lines.text.contains("unknown.clipsDirectory set: clips are kept from the next start"), "\(lines.text)")
  }
}
