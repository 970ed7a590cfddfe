import Foundation
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
