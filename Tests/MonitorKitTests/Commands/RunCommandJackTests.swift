import Foundation
import JackTestSupport
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `broadcast-monitor run` on JACK channels, end to end: a private jackd with the dummy driver, the built monitor,
/// and `broadcast-monitor feed` playing real music into its ports in real time.
///
/// The waits block their thread on purpose (`Thread.sleep`): the times these tests measure must not depend on when
/// a shared test thread becomes free to resume a `Task.sleep`.
@Suite(
  "broadcast-monitor run on JACK", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RunCommandJackTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }
  var db: String { folder.file("plays.sqlite").path }

  init() throws {
    folder = try TemporaryDirectory(prefix: "cli-run-jack")
    try CLI.makeCatalog(at: catalog)
  }

  func start(_ arguments: [String], log name: String) throws -> BackgroundProcess {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    return try BackgroundProcess(
      executable: executable.path, arguments: arguments, outputPath: folder.file("\(name).txt").path)
  }

  /// Waits until `process` has printed `text`; returns when (the time the text was first seen).
  @discardableResult
  func waitFor(_ text: String, in process: BackgroundProcess, seconds: Double = 60, running: Bool = true) throws
    -> Date
  {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if process.output.contains(text) { return Date() }
      if running { try #require(process.isRunning, "exited before printing \(text):\n\(process.output)") }
      Thread.sleep(forTimeInterval: 0.05)
    }
    if process.output.contains(text) { return Date() }
    Issue.record("no \(text) within \(seconds) s:\n\(process.output)")
    throw CancellationError()
  }

  /// The wall-clock time `feed` says its first sample played at.
  func firstSample(of feed: BackgroundProcess) throws -> Double {
    try waitFor("feed: first sample at ", in: feed, seconds: 15)
    let match = try #require(feed.output.firstMatch(of: #/first sample at (\S+)/#), "\(feed.output)")
    return try #require(ISO8601Millis.parse(String(match.1))).timeIntervalSince1970
  }

  /// When each play row first appeared in the play log, polled from another connection until `until`.
  func watchPlayLog(until done: () -> Bool, seconds: Double) throws -> [String: Date] {
    var seen: [String: Date] = [:]
    let deadline = Date().addingTimeInterval(seconds)
    while !done() && Date() < deadline {
      if FileManager.default.fileExists(atPath: db), let plays = try? PlayLogStore(path: db).plays() {
        for play in plays where seen["\(play.channel)/\(play.metadata.title)"] == nil {
          seen["\(play.channel)/\(play.metadata.title)"] = Date()
        }
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return seen
  }

  @Test("two channels fed through JACK are logged with the right tracks, as they play, at the right times")
  func twoChannels() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let monitor = try start(
      [
        "run", "--catalog", catalog.path, "--db", db, "--jack-server", server.name, "--jack-client", "bm",
        "--channel", "one=jack", "--channel", "two=jack-mono",
      ], log: "monitor")
    defer { monitor.terminateAndWait() }
    try waitFor("JACK client 'bm'", in: monitor)

    let feedOne = try start(
      [
        "feed", "--server", server.name, "--client", "feed-one", "--connect", "bm:one_L,bm:one_R",
        Fixtures.music("catalog-a.ogg").path,
      ], log: "feed-one")
    let feedTwo = try start(
      [
        "feed", "--server", server.name, "--client", "feed-two", "--connect", "bm:two",
        Fixtures.music("catalog-c.ogg").path,
      ],
      log: "feed-two")
    let startOne = try firstSample(of: feedOne)
    let startTwo = try firstSample(of: feedTwo)
    let seen = try watchPlayLog(until: { !feedOne.isRunning && !feedTwo.isRunning }, seconds: 45)
    #expect(feedOne.waitForExit(seconds: 5) == 0, "\(feedOne.output)")
    #expect(feedTwo.waitForExit(seconds: 5) == 0, "\(feedTwo.output)")
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")

    let plays = try PlayLogStore(path: db).plays()
    let one = plays.filter { $0.channel == "one" }
    let two = plays.filter { $0.channel == "two" }
    #expect(one.map(\.metadata.title) == ["Armygeddon"], "\(plays)")
    #expect(two.map(\.metadata.title) == ["Internal Degeneration"], "\(plays)")
    #expect(plays.allSatisfy { $0.status == .closed })
    for (play, truth) in zip(one + two, [startOne, startTwo]) {
      #expect(
        abs(play.start.timeIntervalSince1970 - truth) <= 1, "\(play.metadata.title) starts within 1 s of the truth")
      #expect(abs(play.durationSeconds - 30) <= 1.5, "\(play.metadata.title) lasts the 30 s it was fed")
    }
    // Written while on air. The 5 s goal is measured on a release build (bench/live_latency.py); this debug build
    // only has to show the row long before the song ends.
    for (key, truth) in [("one/Armygeddon", startOne), ("two/Internal Degeneration", startTwo)] {
      let appeared = try #require(seen[key], "\(key) was not in the play log while it played")
      #expect(
        appeared.timeIntervalSince1970 - truth < 10, "\(key) appeared \(appeared.timeIntervalSince1970 - truth) s in")
    }
  }

  @Test("a JACK server that dies and returns: gap recorded, client back within 5 s, plays before and after intact")
  func serverRestart() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let monitor = try start(
      [
        "run", "--catalog", catalog.path, "--db", db, "--jack-server", server.name, "--jack-client", "bm",
        "--channel", "fm=jack",
      ], log: "monitor")
    defer { monitor.terminateAndWait() }
    try waitFor("JACK client 'bm'", in: monitor)

    let before = try start(
      [
        "feed", "--server", server.name, "--client", "feed-1", "--connect", "bm:fm_L,bm:fm_R",
        Fixtures.music("catalog-a.ogg").path,
      ], log: "feed-1")
    let startBefore = try firstSample(of: before)
    try waitFor("play started: \"Armygeddon\"", in: monitor)
    // Mid-song (it lasts 30 s): the server dies once the play log holds the play's first 10 s, read from another
    // connection as the monitor writes them.
    let midSong = Wait.until(seconds: 60, pollSeconds: 0.1) {
      let plays = (try? PlayLogStore(path: db).plays()) ?? []
      return plays.contains { $0.metadata.title == "Armygeddon" && $0.end.timeIntervalSince1970 >= startBefore + 10 }
    }
    try #require(midSong, "the play log did not hold 10 s of the play within 60 s:\n\(monitor.output)")
    let killedAt = Date().timeIntervalSince1970
    server.kill()
    try waitFor("went away", in: monitor, seconds: 10)
    try waitFor("play ended: \"Armygeddon\"", in: monitor, seconds: 10)
    _ = before.waitForExit(seconds: 10)

    try server.restart()
    let restarted = Date()
    let back = try waitFor("JACK server '\(server.name)' is back after", in: monitor, seconds: 15)
    #expect(back.timeIntervalSince(restarted) <= 5, "client re-created \(back.timeIntervalSince(restarted)) s after")

    let after = try start(
      [
        "feed", "--server", server.name, "--client", "feed-2", "--connect", "bm:fm_L,bm:fm_R",
        Fixtures.music("catalog-b.ogg").path,
      ], log: "feed-2")
    let startAfter = try firstSample(of: after)
    try waitFor("play started: \"Chaos God\"", in: monitor)
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    after.terminateAndWait()

    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Chaos God"], "\(plays)")
    #expect(plays.allSatisfy { $0.status == .closed })
    if plays.count == 2 {
      #expect(abs(plays[0].start.timeIntervalSince1970 - startBefore) <= 1)
      #expect(plays[0].end.timeIntervalSince1970 <= killedAt + 0.5, "ends at the last audio heard")
      #expect(plays[0].end.timeIntervalSince1970 >= killedAt - 3)
      #expect(abs(plays[1].start.timeIntervalSince1970 - startAfter) <= 1)
    }
    // JACK xruns, and a channel lagging behind real time, are recorded too; a loaded machine may have some at any
    // time.
    // The stop, too: the channel is not heard from its last audio until the next start.
    let events = try Subprocess.run(
      "/usr/bin/sqlite3",
      [
        db,
        "SELECT kind, end_ms IS NULL, detail LIKE 'broadcast-monitor stopped%' FROM events "
          + "WHERE kind NOT IN ('xrun', 'lagging') ORDER BY id",
      ])
    #expect(events.stdout == "restart|1|0\ngap|0|0\nreconnect|0|0\ngap|1|1\n", "\(events)")
  }

  @Test("source ports that appear later are connected; when they disappear a gap is recorded, and they reconnect")
  func sourcePortsComeAndGo() async throws {
    let server = try await JackTestServer.start()
    defer { server.stop() }
    let monitor = try start(
      [
        "run", "--catalog", catalog.path, "--db", db, "--jack-server", server.name, "--jack-client", "bm",
        "--channel", "fm=jack:src:out_L,src:out_R",
      ], log: "monitor")
    defer { monitor.terminateAndWait() }
    try waitFor("not found yet; connecting when it appears", in: monitor)

    // The source plays into the dummy sound card; only the monitor's auto-connection brings it to the channel.
    var feeds: [BackgroundProcess] = []
    var starts: [Double] = []
    for (n, song) in ["catalog-a.ogg", "catalog-c.ogg"].enumerated() {
      let feed = try start(
        [
          "feed", "--server", server.name, "--client", "src", "--connect", "system:playback_1,system:playback_2",
          Fixtures.music(song).path,
        ], log: "feed-\(n)")
      feeds.append(feed)
      starts.append(try firstSample(of: feed))
      try waitFor("connected JACK port src:out_R → bm:fm_R", in: monitor, seconds: 10)
      #expect(feed.waitForExit(seconds: 40) == 0, "\(feed.output)")
      try waitFor(n == 0 ? "disappeared" : "is back", in: monitor, seconds: 10)
    }
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")

    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.map(\.metadata.title) == ["Armygeddon", "Internal Degeneration"], "\(plays)")
    #expect(plays.allSatisfy { $0.status == .closed })
    for (play, start) in zip(plays, starts) {
      #expect(
        abs(play.start.timeIntervalSince1970 - start) <= 1, "\(play.metadata.title) starts within 1 s of the truth")
    }
    // JACK xruns, and a channel lagging behind real time, are recorded too; a loaded machine may have some at any
    // time.
    let events = try Subprocess.run(
      "/usr/bin/sqlite3", [db, "SELECT kind FROM events WHERE kind NOT IN ('xrun', 'lagging') ORDER BY id"])
    #expect(events.stdout.hasPrefix("restart\ngap\nreconnect\n"), "\(events)")
  }
}
