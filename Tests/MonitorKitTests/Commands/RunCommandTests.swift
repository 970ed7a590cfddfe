import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `broadcast-monitor run` as a user runs it: the built executable in the background, stopped with signals, its play
/// log read back with SQLite. The JACK cases are in `RunCommandJackTests`.
@Suite(
  "broadcast-monitor run", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RunCommandTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }
  var db: String { folder.file("plays.sqlite").path }

  init() throws {
    folder = try TemporaryDirectory(prefix: "cli-run")
    try CLI.makeCatalog(at: catalog)
  }

  /// Starts the monitor in the background; its log goes to `log-NAME.txt`.
  func startMonitor(_ arguments: [String], name: String = "monitor") throws -> BackgroundProcess {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    return try BackgroundProcess(
      executable: executable.path, arguments: ["run"] + arguments, outputPath: folder.file("log-\(name).txt").path)
  }

  /// Waits until the monitor's log contains `text`.
  @discardableResult
  func waitForLog(_ monitor: BackgroundProcess, _ text: String, seconds: Double = 60) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let log = monitor.output
      if log.contains(text) { return log }
      try #require(monitor.isRunning, "the monitor exited before logging \(text):\n\(log)")
      Thread.sleep(forTimeInterval: 0.1)
    }
    if monitor.output.contains(text) { return monitor.output }
    Issue.record("no \(text) in the log within \(seconds) s:\n\(monitor.output)")
    throw CancellationError()
  }

  @Test(
    "a file channel logs its song, SIGHUP reloads a catalog renewed in place without a second play, SIGTERM stops cleanly"
  )
  func fileChannel() throws {
    let launched = Date()
    let monitor = try startMonitor([
      "--catalog", catalog.path, "--db", db, "--channel", "demo=file:" + Fixtures.music("catalog-a.ogg").path,
    ])
    try waitForLog(monitor, "[demo] play started: \"Armygeddon\"")
    // The line is logged as the play is handed to the play log's writer, which commits it on its own thread.
    let open = try Wait.until(seconds: 20, pollSeconds: 0.05) {
      try PlayLogStore(path: db).plays().map(\.status) == [.open]
    }
    let seen = try PlayLogStore(path: db).plays()
    #expect(open, "the play is in the play log while it is on air: \(seen)")
    try CLI.renewCatalog(at: catalog)
    monitor.send(SIGHUP)
    try waitForLog(monitor, "catalog reloaded")
    try waitForLog(monitor, "[demo] play ended: \"Armygeddon\"", seconds: 45)
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    let log = monitor.output
    #expect(log.contains("SIGTERM: stopping"))
    #expect(log.hasSuffix("stopped\n"), "\(log)")

    let plays = try PlayLogStore(path: db).plays()
    try #require(plays.count == 1, "one play, also across the reload: \(plays)")
    let play = plays[0]
    #expect(play.metadata.title == "Armygeddon" && play.channel == "demo" && play.status == .closed)
    #expect(play.start >= launched.addingTimeInterval(-1) && play.start <= launched.addingTimeInterval(5))
    #expect(abs(play.durationSeconds - 30) < 1.5, "\(play.durationSeconds)")
    let events = try Subprocess.run("/usr/bin/sqlite3", [db, "SELECT kind FROM events ORDER BY id"])
    #expect(events.stdout.hasPrefix("restart\n"), "\(events)")
  }

  @Test("ffmpeg missing from PATH stops the start with the fix and 78, on which systemd does not restart")
  func ffmpegMissing() throws {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let empty = folder.file("empty-bin")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "PATH=\(empty.path)", executable.path, "run", "--catalog", catalog.path, "--db", db, "--http", "off",
        "--channel", "demo=file:\(Fixtures.music("catalog-a.ogg").path)",
      ])
    #expect(result.status == 78, "\(result)")
    #expect(result.stderr.contains("ffmpeg not found") && result.stderr.contains("apt-get install ffmpeg"), "\(result)")
  }

  @Test("`run --json` whose reader goes away runs on, says so once on stderr, and SIGTERM still closes its play")
  func jsonReaderGoesAway() throws {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let process = Process()
    process.executableURL = executable
    process.arguments = [
      "run", "--json", "--http", "off", "--catalog", catalog.path, "--db", db, "--channel",
      "demo=file+loop:" + Fixtures.music("catalog-a.ogg").path,
    ]
    let output = Pipe()
    process.standardOutput = output
    let errors = folder.file("stderr.txt")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    // Read the events until the play starts, then close the only reader, as `| head` does when it has enough.
    var read = ""
    while !read.contains("\"event\":\"play_started\"") {
      let chunk = output.fileHandleForReading.availableData
      try #require(!chunk.isEmpty, "the monitor ended before its play: \(read)")
      read += String(decoding: chunk, as: UTF8.self)
    }
    try output.fileHandleForReading.close()
    let said = Wait.until(seconds: 60, pollSeconds: 0.1) {
      ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").contains("standard output cannot be written")
    }
    #expect(said, "\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
    #expect(process.isRunning, "it runs on")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationStatus)")
    let stderr = try String(contentsOf: errors, encoding: .utf8)
    #expect(stderr.components(separatedBy: "standard output cannot be written").count == 2, "once: \(stderr)")
    let statuses = try PlayLogStore(path: db).plays().map(\.status)
    #expect(!statuses.isEmpty && !statuses.contains(.open), "\(statuses)")
  }

  @Test("a monitor killed with SIGKILL keeps the play it reported; the next start marks it recovered")
  func killedMonitorRecovers() throws {
    let arguments = [
      "--catalog", catalog.path, "--db", db, "--channel", "demo=file+loop:" + Fixtures.music("catalog-b.ogg").path,
    ]
    let first = try startMonitor(arguments, name: "first")
    try waitForLog(first, "play started: \"Chaos God\"")
    // At least one progress update moves the end in the play log.
    let moved = try Wait.until(seconds: 30, pollSeconds: 0.2) {
      try PlayLogStore(path: db).plays().first.map { $0.durationSeconds >= 4 } ?? false
    }
    #expect(moved, "the end of the open play did not move")
    first.send(SIGKILL)
    _ = first.waitForExit(seconds: 10)
    let left = try PlayLogStore(path: db).plays()
    #expect(left.map(\.status) == [.open])
    #expect((left.first?.durationSeconds ?? 0) >= 4, "the end moved while the play went on: \(left)")
    let heartbeat = try Subprocess.run(
      "/usr/bin/sqlite3",
      [db, "SELECT c.name, h.heard_through_ms FROM channel_heartbeats h JOIN channels c ON c.id = h.channel_id"])
    let heardThrough = try #require(
      heartbeat.stdout.split(separator: "\n").first.flatMap { $0.hasPrefix("demo|") ? Int64($0.dropFirst(5)) : nil },
      "the killed run's heartbeat is left: \(heartbeat)")

    let second = try startMonitor(arguments, name: "second")
    try waitForLog(second, "1 plays left open by the previous run were closed and marked recovered")
    let killed =
      "the previous run ended without stopping (killed, crashed or a power cut): 1 channels recorded as not heard "
      + "from their last heartbeat (the oldest \(ISO8601Millis.format(Date(timeIntervalSince1970: Double(heardThrough) / 1000))))"
    try waitForLog(second, killed)
    second.send(SIGINT)
    #expect(second.waitForExit(seconds: 20) == 0, "\(second.output)")
    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.first?.status == .recovered)
    #expect(plays.first?.end == left.first?.end)
    // The killed run's downtime is a gap from its heartbeat to the second start; the second run stopped cleanly: a
    // gap of its own from its last audio, no heartbeat left.
    let restart = "(SELECT max(start_ms) FROM events WHERE kind = 'restart')"
    let gaps = try Subprocess.run(
      "/usr/bin/sqlite3",
      [
        db,
        "SELECT CASE WHEN start_ms = \(heardThrough) THEN 'heartbeat' WHEN start_ms > \(restart) THEN 'second run' "
          + "ELSE start_ms END, coalesce(end_ms = \(restart), 'open'), detail FROM events WHERE kind = 'gap' "
          + "ORDER BY id; SELECT count(*) FROM channel_heartbeats",
      ])
    #expect(
      gaps.stdout.split(separator: "\n").map(String.init) == [
        "heartbeat|1|\(PlayLogStore.killedRunDetail)",
        "second run|open|broadcast-monitor stopped: not heard until it starts again", "0",
      ], "\(gaps)")
  }

  @Test(
    "a second monitor exits 75 naming the first and touches none of its plays; after SIGKILL a new one starts at once"
  )
  func secondMonitorIsRefused() throws {
    let arguments = [
      "--catalog", catalog.path, "--db", db, "--channel", "demo=file+loop:" + Fixtures.music("catalog-b.ogg").path,
    ]
    let first = try startMonitor(arguments, name: "first")
    try waitForLog(first, "play started: \"Chaos God\"")
    // The writer stores the play after the line is logged.
    let stored = try Wait.until(seconds: 30, pollSeconds: 0.1) { try !PlayLogStore(path: db).plays().isEmpty }
    #expect(stored, "the first monitor's play reached the play log")

    let second = try startMonitor(arguments, name: "second")
    defer { second.terminateAndWait() }
    #expect(second.waitForExit(seconds: 30) == 75, "refused with EX_TEMPFAIL: \(second.output)")
    let refusal = second.output
    for part in ["play log \(db) is in use by another broadcast-monitor: `run`, pid \(first.pid) on host ", "--db"] {
      #expect(refusal.contains(part), "\(part) in: \(refusal)")
    }
    #expect(!refusal.contains("recovered"), "\(refusal)")
    #expect(first.isRunning, "the first monitor goes on: \(first.output)")
    #expect(try PlayLogStore(path: db).plays().map(\.status) == [.open], "the first one's play is still open")
    let restarts = try Subprocess.run("/usr/bin/sqlite3", [db, "SELECT count(*) FROM events WHERE kind = 'restart'"])
    #expect(restarts.stdout == "1\n", "no restart event from the refused monitor: \(restarts)")

    first.send(SIGKILL)
    #expect(first.waitForExit(seconds: 10) == 128 + SIGKILL)
    let third = try startMonitor(arguments, name: "third")
    try waitForLog(third, "plays left open by the previous run were closed and marked recovered", seconds: 20)
    third.send(SIGINT)
    #expect(third.waitForExit(seconds: 20) == 0, "\(third.output)")
  }

  @Test("SIGTERM while the play log is locked exits 74 within seconds, the plays spooled; the next start writes them")
  func stopWhilePlayLogLocked() throws {
    let arguments = [
      "--log", "--catalog", catalog.path, "--db", db, "--channel", "demo=file:" + Fixtures.music("catalog-a.ogg").path,
    ]
    let first = try startMonitor(arguments, name: "first")
    defer { first.terminateAndWait() }
    try waitForLog(first, "[demo] play started: \"Armygeddon\"")
    let locker = try PlayLogWriterSpoolTests.Locker(db)
    var locked = true
    defer { if locked { locker.release() } }
    try waitForLog(first, "play log \(db) cannot be written")
    let stopping = Date()
    first.send(SIGTERM)
    #expect(first.waitForExit(seconds: 20) == 74, "\(first.output)")
    #expect(Date().timeIntervalSince(stopping) < 12, "well inside systemd's TimeoutStopSec=15")
    let log = first.output
    #expect(log.contains("writes are kept in the spool \(db).spool, and the next start replays them"), "\(log)")
    #expect(!log.contains("lost"), "\(log)")
    locker.release()
    locked = false
    #expect(try PlayLogStore(path: db).plays().map(\.status) == [.open], "the close waits in the spool")

    let second = try startMonitor(arguments, name: "second")
    defer { second.terminateAndWait() }
    try waitForLog(second, "writes kept by the last run were replayed")
    try waitForLog(second, "[demo] play started: \"Armygeddon\"")
    second.send(SIGTERM)
    #expect(second.waitForExit(seconds: 20) == 0, "\(second.output)")
    #expect(!second.output.contains("recovered"), "the replayed close leaves nothing to recover: \(second.output)")
    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.map(\.status) == [.closed, .closed], "each run's play once, closed: \(plays)")
    #expect(!FileManager.default.fileExists(atPath: db + ".spool"))
    // Each stop is a gap on the channel (the first one's from the spool), and the second start ended the first's.
    let gaps = try Subprocess.run(
      "/usr/bin/sqlite3",
      [
        db,
        "SELECT end_ms = (SELECT max(start_ms) FROM events WHERE kind = 'restart'), end_ms IS NULL FROM events "
          + "WHERE kind = 'gap' ORDER BY id",
      ])
    #expect(gaps.stdout == "1|0\n|1\n", "\(gaps)")
  }

  @Test("a monitor started while another program holds the play log's write lock listens, and writes when it goes")
  func startWhilePlayLogLocked() throws {
    try PlayLogStore(path: db).close()
    let locker = try PlayLogWriterSpoolTests.Locker(db)
    var locked = true
    defer { if locked { locker.release() } }
    let arguments = [
      "--log", "--catalog", catalog.path, "--db", db, "--channel", "demo=file:" + Fixtures.music("catalog-a.ogg").path,
    ]
    let monitor = try startMonitor(arguments)
    defer { monitor.terminateAndWait() }
    try waitForLog(monitor, "play log \(db) cannot be written at start")
    try waitForLog(monitor, "[demo] play started: \"Armygeddon\"")
    locker.release()
    locked = false
    try waitForLog(monitor, "play log \(db) is writable: the start-up writes are done")
    try waitForLog(monitor, "[demo] play ended: \"Armygeddon\"")
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    #expect(
      try PlayLogStore(path: db).plays().map(\.status) == [.closed],
      "the play heard while the lock was held: \(monitor.output)")
    let restarts = try Subprocess.run("/usr/bin/sqlite3", [db, "SELECT count(*) FROM events WHERE kind = 'restart'"])
    #expect(restarts.stdout == "1\n", "and the start, recorded once: \(restarts)")
  }

  @Test(
    "a monitor started on a disk too full to open its play log listens, and writes when there is room",
    .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
  func startOnFullDisk() throws {
    let disk = try SmallDisk(in: folder)
    defer { withExtendedLifetime(disk) {} }  // mounted to the end of the test
    let full = disk.file("plays.sqlite").path
    let filler = try disk.fill()  // to the last block: SQLite cannot even write the new play log's header
    let spool = folder.file("spool")
    try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
    let monitor = try startMonitor([
      "--log", "--catalog", catalog.path, "--db", full, "--spool-dir", spool.path, "--channel",
      "demo=file:" + Fixtures.music("catalog-a.ogg").path,
    ])
    defer { monitor.terminateAndWait() }
    try waitForLog(monitor, "play log \(full) cannot be written at start")
    try waitForLog(monitor, "[demo] play started: \"Armygeddon\"")
    try FileManager.default.removeItem(at: filler)
    try waitForLog(monitor, "play log \(full) is writable: the start-up writes are done")
    try waitForLog(monitor, "[demo] play ended: \"Armygeddon\"")
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    #expect(
      try PlayLogStore(path: full).plays().map(\.status) == [.closed],
      "the play heard while the disk was full: \(monitor.output)")
  }

  @Test(
    "a monitor killed in the middle of a song and started again logs the airing as one play",
    .enabled(if: IcecastTestServer.isAvailable, Comment(rawValue: IcecastTestServer.skipMessage)))
  func restartMidSongIsOnePlay() throws {
    let icecast = try IcecastTestServer()
    defer { icecast.kill() }
    let arguments = ["--log", "--catalog", catalog.path, "--db", db, "--channel", "web=" + icecast.url]
    let first = try startMonitor(arguments, name: "first")
    defer { first.terminateAndWait() }
    try waitForLog(first, "[web] play started: \"Armygeddon\"", seconds: 45)
    let deadline = Date().addingTimeInterval(30)
    var cut: [PlayRecord] = []
    repeat {
      Thread.sleep(forTimeInterval: 0.2)
      cut = try PlayLogStore(path: db).plays()
    } while (cut.first?.durationSeconds ?? 0) < 2 && Date() < deadline
    try #require(cut.count == 1 && cut[0].durationSeconds >= 2, "the open play moved on: \(cut)")
    first.send(SIGKILL)
    _ = first.waitForExit(seconds: 10)

    let second = try startMonitor(arguments, name: "second")
    defer { second.terminateAndWait() }
    let log = try waitForLog(second, "[web] play ended: \"Armygeddon\"", seconds: 45)
    second.send(SIGTERM)
    #expect(second.waitForExit(seconds: 20) == 0, "\(second.output)")
    let plays = try PlayLogStore(path: db).plays().filter { $0.start < cut[0].start.addingTimeInterval(25) }
    #expect(plays.count == 1, "one airing, one play: \(plays)\n\(log)")
    #expect(
      log.contains("[web] \"Armygeddon\" continues play \(cut[0].id ?? 0), recovered after a restart"), "\(log)")
    #expect(plays.first?.status == .closed && plays.first?.start == cut[0].start, "\(plays)")
    #expect((plays.first?.durationSeconds ?? 0) > 25, "the airing's whole length: \(plays)")
    let airplay = try CLI.run([
      "report", "airplay", "--db", db, "--tz", "UTC", "--from",
      ISO8601Millis.format(cut[0].start.addingTimeInterval(-1)),
      "--to", ISO8601Millis.format(cut[0].start.addingTimeInterval(25)),
    ])
    #expect(airplay.status == 0, "\(airplay)")
    let rows = CLI.lines(airplay.stdout).filter { $0.contains("Armygeddon") }
    #expect(rows.count == 1 && rows[0].contains(",1,"), "counted once: \(airplay.stdout)")
  }

  @Test("another program's SQLite database as the play log stops the start with status 78, untouched")
  func playLogOfAnotherProgram() throws {
    _ = try Subprocess.run("/usr/bin/sqlite3", [db, "CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT)"])
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let result = try CLI.run([
      "run", "--log", "--catalog", catalog.path, "--db", db, "--channel",
      "demo=file:" + Fixtures.music("catalog-a.ogg").path,
    ])
    #expect(result.status == 78, "\(result)")
    #expect(result.stderr.contains("is an SQLite database of another program (its tables: moz_places)"), "\(result)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the file is left as it was")
  }

  @Test("a play log that is not an SQLite database stops the start with status 78, naming the file and the fix")
  func playLogNotSQLite() throws {
    try FileManager.default.copyItem(atPath: catalog.path, toPath: db)  // --db naming the catalog by mistake
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let result = try CLI.run([
      "run", "--log", "--catalog", catalog.path, "--db", db, "--channel",
      "demo=file:" + Fixtures.music("catalog-a.ogg").path,
    ])
    #expect(result.status == 78, "\(result)")
    #expect(result.stderr.contains("cannot open play log \(db): file is not a database"), "\(result.stderr)")
    #expect(result.stderr.contains("check that the path names the right file"), "\(result.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the file is left as it was")
  }

  @Test(
    "a title with an escape sequence and line breaks is one escaped line with --log and one JSON line with --json")
  func hostileTitle() throws {
    let title = "Army\u{1B}[2J\ngeddon\n2026-01-01T00:00:00.000Z [demo] forged line\u{202E}"
    let sheet = folder.file("hostile.csv")
    let song = Fixtures.music("catalog-a.ogg").path
    try "path,title,artist\n\(song),\"\(title)\",Muldjord\n".write(to: sheet, atomically: true, encoding: .utf8)
    let hostile = folder.file("hostile.bmcat")
    let added = try CLI.run(["catalog", "add", "--catalog", hostile.path, "--metadata", sheet.path, song])
    try #require(added.status == 0, "\(added)")
    let arguments = ["--catalog", hostile.path, "--db", db, "--channel", "demo=file:" + song]

    let text = try startMonitor(["--log"] + arguments, name: "text")
    try waitForLog(text, "play started")
    text.send(SIGTERM)
    #expect(text.waitForExit(seconds: 20) == 0, "\(text.output)")
    let lines = CLI.lines(text.output)
    #expect(
      lines.contains {
        $0.contains("play started: \"Army\u{FFFD}[2J geddon 2026-01-01T00:00:00.000Z [demo] forged line\u{FFFD}\"")
      },
      "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("2026-01-01T00:00:00.000Z") }, "no forged line: \(lines)")
    #expect(!text.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(text.output)")

    let json = try startMonitor(["--json"] + arguments, name: "json")
    try waitForLog(json, #""event":"play_started""#)
    json.send(SIGTERM)
    #expect(json.waitForExit(seconds: 20) == 0, "\(json.output)")
    var titles: [String] = []
    for line in CLI.lines(json.output) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      if let found = object["title"] as? String { titles.append(found) }
    }
    #expect(titles.first == title, "the JSON keeps the title exactly: \(titles)")
    #expect(!json.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(json.output)")
  }

  @Test(
    "a stream channel from a local Icecast server is monitored",
    .enabled(if: IcecastTestServer.isAvailable, Comment(rawValue: IcecastTestServer.skipMessage)))
  func streamChannel() throws {
    let icecast = try IcecastTestServer()
    try icecast.start()
    defer { icecast.kill() }
    let monitor = try startMonitor(["--catalog", catalog.path, "--db", db, "--channel", "web=" + icecast.url])
    try waitForLog(monitor, "[web] play started: \"Armygeddon\"", seconds: 45)
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.first?.metadata.title == "Armygeddon")
    #expect(plays.first?.channel == "web")
    #expect(plays.allSatisfy { $0.status == .closed })
  }

  @Test("a configuration error stops the start, names the setting and exits 78", arguments: ConfigurationCase.all)
  func configurationErrors(_ error: ConfigurationCase) throws {
    let config = folder.file("monitor.json5")
    try error.file(catalog.path, db).write(to: config, atomically: true, encoding: .utf8)
    let result = try CLI.run(["run", "--config", config.path] + error.arguments)
    #expect(result.status == error.status, "\(result)")
    #expect(result.stderr.contains(error.message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: db), "nothing started: no play log was created")
  }

  struct ConfigurationCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var file: @Sendable (_ catalog: String, _ db: String) -> String
    var arguments: [String] = []
    var status: Int32 = 78
    var message: String

    static let all: [ConfigurationCase] = [
      .init(
        testDescription: "unknown key",
        file: { "{catalogPath: '\($0)', databasePath: '\($1)', chanels: []}" },
        message: "chanels"),
      .init(
        testDescription: "duplicate channel",
        file: {
          "{catalogPath: '\($0)', databasePath: '\($1)', channels: [{name: 'fm', source: 'jack'}, "
            + "{name: 'fm', source: 'jack-mono'}]}"
        },
        message: "channels[1].name"),
      .init(
        testDescription: "missing catalog",
        file: { "{catalogPath: '\($0).missing', databasePath: '\($1)', channels: [{name: 'fm', source: 'jack'}]}" },
        message: "catalog add"),
      .init(
        testDescription: "wrong type",
        file: { "{catalogPath: '\($0)', databasePath: '\($1)', workerThreads: 'two', channels: []}" },
        message: "workerThreads"),
      .init(
        testDescription: "spool folder missing",
        file: {
          "{catalogPath: '\($0)', databasePath: '\($1)', spoolDirectory: '\($1).missing', "
            + "channels: [{name: 'fm', source: 'jack'}]}"
        },
        message: "spoolDirectory: cannot write in"),
      .init(
        testDescription: "a password in the PostgreSQL URL",
        file: { catalog, _ in
          "{catalogPath: '\(catalog)', database: {url: 'postgresql://bm:secret@127.0.0.1:1/plays'}, "
            + "channels: [{name: 'fm', source: 'jack'}]}"
        },
        message: "remove it, and give the password in PGPASSWORD"),
      .init(
        testDescription: "a PostgreSQL password file that cannot be read",
        file: {
          "{catalogPath: '\($0)', database: {url: 'postgresql://bm@127.0.0.1:1/plays', "
            + "passwordFile: '\($1).missing'}, channels: [{name: 'fm', source: 'jack'}]}"
        },
        message: "cannot read the password file"),
      .init(
        testDescription: "bad source on the command line",
        file: { "{catalogPath: '\($0)', databasePath: '\($1)', channels: []}" },
        arguments: ["--channel", "fm=tuner3"], status: 64, message: "fm"),
    ]
  }
}
