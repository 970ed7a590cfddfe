import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// SIGHUP reads the whole configuration file again: `broadcast-monitor run --config FILE` in the background, the
/// file rewritten, the signal sent, and the play log read back.
@Suite(
  "broadcast-monitor run: SIGHUP reloads the configuration", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RunCommandReloadTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }
  var db: String { folder.file("plays.sqlite").path }
  var config: URL { folder.file("monitor.json5") }

  init() throws {
    folder = try TemporaryDirectory(prefix: "cli-reload")
    try CLI.makeCatalog(at: catalog)
  }

  /// A configuration file with `channels` (name, file, loop).
  func writeConfiguration(_ channels: [(String, String, Bool)]) throws {
    let list = channels.map { name, file, loop in
      "{name: \"\(name)\", source: {file: {path: \"\(Fixtures.music(file).path)\", loop: \(loop)}}, timeZone: \"UTC\"}"
    }
    let text = """
      {
        catalogPath: "\(catalog.path)",
        databasePath: "\(db)",
        workerThreads: 2,
        channels: [\(list.joined(separator: ", "))],
      }
      """
    try text.write(to: config, atomically: true, encoding: .utf8)
  }

  /// Waits until the monitor's log contains `text`.
  func waitForLog(_ monitor: BackgroundProcess, _ text: String, seconds: Double = 60) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !monitor.output.contains(text) {
      try #require(monitor.isRunning, "the monitor exited before logging \(text):\n\(monitor.output)")
      try #require(Date() < deadline, "no \(text) in the log within \(seconds) s:\n\(monitor.output)")
      Thread.sleep(forTimeInterval: 0.1)
    }
  }

  @Test(
    "a channel added starts and one removed stops, while the untouched channel's play runs on as one play and the unchanged catalog is kept"
  )
  func addsAndRemovesChannels() throws {
    try writeConfiguration([("keep", "catalog-b.ogg", false), ("gone", "catalog-c.ogg", true)])
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let monitor = try BackgroundProcess(
      executable: executable.path, arguments: ["run", "--log", "--config", config.path],
      outputPath: folder.file("log.txt").path)
    defer { monitor.terminateAndWait() }
    try waitForLog(monitor, "[keep] play started: \"Chaos God\"")
    try waitForLog(monitor, "[gone] play started: \"Internal Degeneration\"")

    try writeConfiguration([("keep", "catalog-b.ogg", false), ("new", "catalog-a.ogg", false)])
    let reloadedAt = Date()
    monitor.send(SIGHUP)
    try waitForLog(monitor, "SIGHUP: configuration reloaded: 1 channels added (new), 1 removed (gone), 0 changed")
    try waitForLog(monitor, "[new] play started: \"Armygeddon\"")
    try waitForLog(monitor, "[keep] play ended: \"Chaos God\"")
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")

    let log = monitor.output
    #expect(log.contains("[gone] removed from the configuration: stopped"))
    #expect(log.contains("[new] listening to"))
    #expect(log.contains("untouched; catalog \(catalog.path) unchanged since it was loaded: kept"))
    #expect(!log.contains("catalog reloaded"), "an unchanged catalog is not loaded again")
    #expect(!log.contains("[keep] removed") && !log.contains("[keep] changed"))
    #expect(log.components(separatedBy: "[keep] listening to").count == 2, "the untouched channel started once")
    let plays = try PlayLogStore(path: db).plays()
    let keep = plays.filter { $0.channel == "keep" }
    try #require(keep.count == 1, "the untouched channel's play is one play, neither split nor restarted: \(plays)")
    #expect(keep[0].status == .closed && keep[0].metadata.title == "Chaos God")
    #expect(keep[0].start < reloadedAt && keep[0].end > reloadedAt.addingTimeInterval(5), "\(keep[0])")
    let gone = plays.filter { $0.channel == "gone" }
    #expect(gone.count == 1 && gone.allSatisfy { $0.status == .closed }, "the removed channel's play closed: \(gone)")
    #expect(gone.first.map { $0.end <= Date() && $0.end >= reloadedAt.addingTimeInterval(-3) } == true)
    #expect(plays.filter { $0.channel == "new" }.map(\.metadata.title) == ["Armygeddon"])
  }

  @Test(
    "a configuration with an error keeps the running one, logs why, and reloads a catalog renewed in place, but not an unchanged one"
  )
  func badConfigurationKeepsTheRunningOne() throws {
    try writeConfiguration([("keep", "catalog-b.ogg", true)])
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let monitor = try BackgroundProcess(
      executable: executable.path, arguments: ["run", "--log", "--config", config.path],
      environment: ["INVOCATION_ID": "0123456789abcdef0123456789abcdef"], outputPath: folder.file("log.txt").path)
    defer { monitor.terminateAndWait() }
    try waitForLog(monitor, "[keep] play started: \"Chaos God\"")
    try "{ catalogPath: \"\(catalog.path)\", channels: [ {name: \"x\"} ] }".write(
      to: config, atomically: true, encoding: .utf8)
    try CLI.renewCatalog(at: catalog)
    monitor.send(SIGHUP)
    try waitForLog(monitor, "SIGHUP: configuration not reloaded, the running one stays: ")
    try waitForLog(monitor, "[keep] catalog reloaded")
    // Again, the catalog untouched since: kept, not loaded again.
    monitor.send(SIGHUP)
    try waitForLog(monitor, "SIGHUP: catalog \(catalog.path) unchanged since it was loaded: kept")
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    let lines = monitor.output.split(separator: "\n")
    let refused = try #require(lines.first { $0.contains("configuration not reloaded") })
    #expect(refused.hasPrefix("<3>SIGHUP: "), "under systemd: the priority, no time of its own: \(refused)")
    #expect(lines.allSatisfy { $0.hasPrefix("<") }, "\(lines)")
    #expect(try PlayLogStore(path: db).plays().filter { $0.channel == "keep" }.count == 1)
  }
}
