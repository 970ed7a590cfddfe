import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("IcecastStatsSampler")
struct IcecastStatsSamplerTests {
  @Test("Icecast's JSON stats give the listeners per mount: one source, several, none; anything else is refused")
  func listenersByMount() {
    let one = #"{"icestats":{"admin":"a@b","source":{"listenurl":"http://radio:8000/live","listeners":7}}}"#
    #expect(IcecastStatsSampler.listenersByMount(Data(one.utf8)) == ["/live": 7])
    let two = """
      {"icestats":{"source":[{"listenurl":"http://radio:8000/live","listeners":3},
                             {"listenurl":"http://radio:8000/hd2.ogg","listeners":0}]}}
      """
    #expect(IcecastStatsSampler.listenersByMount(Data(two.utf8)) == ["/live": 3, "/hd2.ogg": 0])
    #expect(IcecastStatsSampler.listenersByMount(Data(#"{"icestats":{"admin":"a@b"}}"#.utf8)) == [:])
    #expect(IcecastStatsSampler.listenersByMount(Data("<html>Not Found</html>".utf8)) == nil)
    #expect(IcecastStatsSampler.listenersByMount(Data(#"{"other":1}"#.utf8)) == nil)
  }

  @Test("A stats URL must be http or https with a host")
  func endpoints() {
    #expect(IcecastStatsSampler.endpoint("http://127.0.0.1:8000/status-json.xsl") != nil)
    #expect(IcecastStatsSampler.endpoint("https://radio.example/status-json.xsl") != nil)
    #expect(IcecastStatsSampler.endpoint("ftp://radio/status") == nil)
    #expect(IcecastStatsSampler.endpoint("/status-json.xsl") == nil)
  }

  @Test(
    "run samples the stream's listeners from a real Icecast into the play log, and the Report of Use counts them",
    .enabled(if: CLI.isBuilt, CLI.notBuilt),
    .enabled(if: IcecastTestServer.isAvailable, Comment(rawValue: IcecastTestServer.skipMessage)))
  func sampledByRun() throws {
    let folder = try TemporaryDirectory(prefix: "icecast-stats")
    let catalog = folder.file("music.bmcat")
    try CLI.makeCatalog(at: catalog)
    let db = folder.file("plays.sqlite").path
    let icecast = try IcecastTestServer()
    defer { icecast.kill() }
    let config = folder.file("monitor.json5")
    try """
    {catalogPath: "\(catalog.path)", databasePath: "\(db)",
     channels: [{name: "web", source: "\(icecast.url)", timeZone: "UTC"}],
     reports: {soundExchange: {serviceName: "WEB", transmissionCategory: "C", icecastStatsSeconds: 1,
       channels: {web: {icecastMount: "\(icecast.mount)",
                        icecastStatsURL: "http://127.0.0.1:\(icecast.port)/status-json.xsl"}}}}}
    """.write(to: config, atomically: true, encoding: .utf8)
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let monitor = try BackgroundProcess(
      executable: executable.path, arguments: ["run", "--config", config.path],
      outputPath: folder.file("log.txt").path)
    defer { monitor.terminateAndWait() }
    // The monitor is a listener of the stream itself: once it plays the song, Icecast counts it.
    let deadline = Date().addingTimeInterval(60)
    var samples: [Int64] = []
    while Date() < deadline {
      if monitor.output.contains("[web] play started: \"Armygeddon\""),
        let reader = try? PlayLogReader(path: db),
        let channel = try? ReportScope(timeZoneOverride: TimeZone(identifier: "UTC")).channels(in: reader).first
      {
        samples = try reader.listenerSamples(channelID: channel.id, fromMilliseconds: 0, toMilliseconds: .max)
          .map(\.listeners)
        if samples.contains(where: { $0 >= 1 }) { break }
      }
      try #require(monitor.isRunning, "the monitor stopped:\n\(monitor.output)")
      Thread.sleep(forTimeInterval: 0.2)
    }
    #expect(samples.contains(where: { $0 >= 1 }), "samples \(samples):\n\(monitor.output)")
    #expect(monitor.output.contains("listener stats: sampling 1 channels from http://127.0.0.1:\(icecast.port)"))
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")

    let report = try CLI.run(["report", "soundexchange", "--config", config.path])
    #expect(report.status == 0, "\(report)")
    #expect(
      report.stderr.contains("ACTUAL_TOTAL_PERFORMANCES from listeners sampled from Icecast's stats"), "\(report)")
    let rows = try MetadataSheet.parse(report.stdout, path: "rou.csv")
    let row = try #require(rows.first { $0.count == 11 && $0[3] == "Armygeddon" }, "\(report.stdout)")
    // ACTUAL_TOTAL_PERFORMANCES: the monitor at least; PLAY_FREQUENCY empty.
    #expect((Int(row[7]) ?? 0) >= 1 && row[10].isEmpty, "\(row)")
  }
}
