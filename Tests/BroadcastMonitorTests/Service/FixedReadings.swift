import Foundation

@testable import BroadcastMonitor

/// Fixed monitor readings for the API's unit tests: two channels (one with a play on air, one in digital silence)
/// and a play log at `databasePath`.
struct FixedReadings: MonitorReadings {
  var statuses: [ChannelStatus]
  var overview: MonitorOverview
  var playLogWriteLatency = LatencyHistogram.Snapshot(
    counts: [3, 1] + [Int](repeating: 0, count: LatencyHistogram.bucketBoundsSeconds.count - 1), sumSeconds: 0.0012)

  init(databasePath: String = "/nonexistent/plays.sqlite", jack: Bool = false) {
    let start = Date(timeIntervalSince1970: 1_796_000_000)
    var onAir = ChannelStatus(name: "fm1", source: "file:/music/a.ogg")
    onAir.input = .running
    onAir.peakLevelDB = -12.5
    onAir.current = [
      ChannelStatus.CurrentPlay(
        title: "Song \"One\"", artist: "Band", start: start, end: start.addingTimeInterval(10),
        referenceOffsetSeconds: 1.5, speed: 1.01, confidence: 0.9, kind: "song")
    ]
    onAir.recentPlays = [
      ChannelStatus.RecentPlay(id: 7, channel: "fm1", title: "Song \"One\"", artist: "Band", start: start)
    ]
    onAir.playCount = 1
    onAir.gapCount = 2
    onAir.reconnectCount = 1
    var silent = ChannelStatus(name: "am\"2\\x", source: "jack")
    silent.input = .running
    silent.peakLevelDB = -.infinity
    statuses = [onAir, silent]
    overview = MonitorOverview(
      startedAt: start, catalogPath: "/music/c.bmcat", catalogItems: 29, catalogHours: 1.9,
      databasePath: databasePath, storeBacklog: 0, storeFailing: false,
      jack: jack
        ? MonitorOverview.Jack(
          serverName: nil, clientName: "broadcast-monitor", connected: true, sampleRateHz: 48000, bufferFrames: 256,
          xruns: 3) : nil)
  }
}
