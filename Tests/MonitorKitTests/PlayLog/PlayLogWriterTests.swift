import Common
import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("PlayLogWriter", .enabled(if: Subprocess.isInstalled("sqlite3"), "needs the sqlite3 command"))
struct PlayLogWriterTests {
  static func play(_ title: String, start: Double) -> PlayRecord {
    PlayRecord(
      channel: "test-fm", itemKey: "key-\(title)", title: title, start: Date(timeIntervalSince1970: start),
      end: Date(timeIntervalSince1970: start + 10), confidence: 0.5,
      detectedAt: Date(timeIntervalSince1970: start + 4), status: .open)
  }

  @Test("starts, updates, retractions and events are written in order")
  func writesInOrder() throws {
    let folder = try TemporaryDirectory(prefix: "writer")
    let path = folder.file("plays.sqlite").path
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log)
    let first = writer.makeToken()
    let second = writer.makeToken()
    #expect(first != second)
    writer.submit(.start(token: first, play: Self.play("one", start: 1000)))
    writer.submit(.start(token: second, play: Self.play("two", start: 1100)))
    writer.submit(
      .update(
        token: first, start: Date(timeIntervalSince1970: 999.5), end: Date(timeIntervalSince1970: 1180),
        refOffsetSeconds: 2, speed: 1.02, confidence: 0.7, closed: true))
    writer.submit(.retract(token: second))
    writer.submit(
      .event(channel: "test-fm", kind: .gap, start: Date(timeIntervalSince1970: 1200), end: nil, detail: "dropped"))
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.metadata.title) == ["one"])
    #expect(plays.first?.status == .closed)
    #expect(plays.first?.start == Date(timeIntervalSince1970: 999.5), "the matcher's refined start")
    #expect(plays.first?.end == Date(timeIntervalSince1970: 1180))
    #expect(plays.first?.speed == 1.02)
  }

  @Test("a locked play log holds the writes in memory and writes each once when the lock goes")
  func survivesLockedDatabase() throws {
    let folder = try TemporaryDirectory(prefix: "writer-locked")
    let path = folder.file("plays.sqlite").path
    let lines = LineCollector()
    let log = MonitorLog(write: { lines.append($0) })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log, retrySeconds: 0.2)

    // Another program takes the write lock and keeps it for longer than the 5 s busy timeout.
    let locker = Process()
    locker.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    locker.arguments = [path]
    let input = Pipe()
    locker.standardInput = input
    locker.standardOutput = FileHandle.nullDevice
    try locker.run()
    // `.timeout`: the probe below may hold the lock for an instant when the locker asks for it.
    input.fileHandleForWriting.write(
      Data(".timeout 5000\nBEGIN EXCLUSIVE;\nINSERT INTO channels(name) VALUES('lock');\n".utf8))
    // Wait until the locker holds the write lock: another writer is then refused at once.
    let locked = try Wait.until(seconds: 10, pollSeconds: 0.05) {
      let probe = try Subprocess.run("/usr/bin/sqlite3", [path, "BEGIN IMMEDIATE; ROLLBACK;"])
      return probe.status != 0 && probe.stderr.contains("locked")
    }
    try #require(locked, "sqlite3 did not take the write lock")

    let token = writer.makeToken()
    writer.submit(.start(token: token, play: Self.play("held", start: 2000)))
    writer.submit(
      .update(
        token: token, start: Date(timeIntervalSince1970: 2000), end: Date(timeIntervalSince1970: 2030),
        refOffsetSeconds: 0, speed: 1, confidence: 0.8, closed: true))
    let deadline = Date().addingTimeInterval(20)
    while !writer.isFailing && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    #expect(writer.isFailing)
    #expect(writer.backlog == 2)
    #expect(lines.text.contains("plays.sqlite cannot be written"), "\(lines.text)")
    #expect(lines.text.contains("database is locked"), "\(lines.text)")

    input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
    try input.fileHandleForWriting.close()
    locker.waitUntilExit()
    #expect(writer.stop().isEmpty)
    #expect(lines.text.contains("writable again"))
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.metadata.title) == ["held"])
    #expect(plays.first?.status == .closed)
  }
}

/// The durable spool: what the play log cannot take goes to a synced journal, a stop leaves it there at once, and
/// the next start replays it exactly once; a damaged spool is replayed up to the damage.
@Suite("PlayLogWriter spool", .enabled(if: Subprocess.isInstalled("sqlite3"), "needs the sqlite3 command"))
struct PlayLogWriterSpoolTests {
  static func play(_ title: String, start: Double) -> PlayRecord { PlayLogWriterTests.play(title, start: start) }

  static func update(_ token: UInt64, start: Double, end: Double, closed: Bool) -> PlayLogWriter.Command {
    .update(
      token: token, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
      refOffsetSeconds: 0, speed: 1, confidence: 0.9, closed: closed)
  }

  /// Another program holding the play log's write lock (longer than SQLite's 5 s busy timeout) until `release()`.
  final class Locker {
    let process = Process()
    let input = Pipe()

    init(_ path: String) throws {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
      process.arguments = [path]
      process.standardInput = input
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      input.fileHandleForWriting.write(
        // A writer that holds the lock at this moment makes BEGIN wait (up to 60 s) rather than fail; a failure
        // ends sqlite3 before it answers.
        Data(
          ".bail on\n.timeout 60000\nBEGIN EXCLUSIVE;\nINSERT INTO channels(name) VALUES('lock');\nSELECT 'locked';\n"
            .utf8))
      let reply = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
      try #require(reply.contains("locked"), "sqlite3 did not take the lock: \(reply)")
    }

    func release() {
      input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
  }

  @Test(
    "a stop while the play log is locked leaves every write in the spool at once; the next start writes each once")
  func stopWhileLockedSpools() throws {
    let folder = try TemporaryDirectory(prefix: "writer-spool")
    let path = folder.file("plays.sqlite").path
    let lines = LineCollector()
    let log = MonitorLog(write: { lines.append($0) })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log, retrySeconds: 0.2)
    let running = writer.makeToken()
    writer.submit(.start(token: running, play: Self.play("running", start: 1000)))
    Wait.until(seconds: 120) { writer.backlog == 0 }

    let locker = try Locker(path)
    let held = writer.makeToken()
    writer.submit(Self.update(running, start: 1000, end: 1020, closed: false))
    writer.submit(.start(token: held, play: Self.play("held", start: 1030)))
    writer.submit(
      .event(channel: "test-fm", kind: .gap, start: Date(timeIntervalSince1970: 1040), end: nil, detail: "dropped"))
    writer.submit(Self.update(held, start: 1030, end: 1090, closed: true))
    writer.submit(Self.update(running, start: 1000, end: 1100, closed: true))
    Wait.until(seconds: 120) { writer.isFailing && writer.spooled == 5 }
    #expect(writer.spooled == 5, "every waiting write is in the spool")
    #expect(lines.text.contains("Plays wait in the spool \(path).spool"), "\(lines.text)")
    // What a SIGKILL now would leave.
    let spool = PlaySpool(playLogPath: path)
    let killed = folder.file("killed.spool").path
    try FileManager.default.copyItem(atPath: spool.path, toPath: killed)

    let stopping = Date()
    let leftover = writer.stop()
    #expect(Date().timeIntervalSince(stopping) < PlayLogWriter.stopTimeoutSeconds, "no 30 s wait")
    #expect(leftover.spooled == 5 && leftover.unspooled.isEmpty, "\(leftover)")
    locker.release()

    let store = try PlayLogStore(path: path)
    #expect(try store.plays().map(\.metadata.title) == ["running"], "nothing written while locked")
    // After a SIGKILL: the spool as it was, replayed before the recovery.
    try FileManager.default.moveItem(atPath: spool.path, toPath: folder.file("stopped.spool").path)
    try FileManager.default.copyItem(atPath: killed, toPath: spool.path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 5)
    #expect(!FileManager.default.fileExists(atPath: spool.path), "replayed once, then removed")
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 0)
    // The spool the stop left holds the same writes: replayed after them, it adds nothing.
    try FileManager.default.moveItem(atPath: folder.file("stopped.spool").path, toPath: spool.path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 5)
    #expect(try store.recoverOpenPlays() == [])
    let plays = try store.plays()
    #expect(plays.map(\.metadata.title) == ["running", "held"], "each play once: \(plays)")
    #expect(plays.map(\.status) == [.closed, .closed])
    #expect(plays.map(\.end) == [Date(timeIntervalSince1970: 1100), Date(timeIntervalSince1970: 1090)])
    let events = try Subprocess.run("/usr/bin/sqlite3", [path, "SELECT kind, detail FROM events"])
    #expect(events.stdout == "gap|dropped\n", "the event once: \(events)")
  }

  @Test(
    "while the play log is locked, one heartbeat a minute goes to the spool; the last one is the play log's after it")
  func heartbeatsWhileLockedAreSparse() throws {
    let folder = try TemporaryDirectory(prefix: "writer-heartbeat")
    let path = folder.file("plays.sqlite").path
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log, retrySeconds: 0.2)
    func heartbeat(_ seconds: Double) -> [ChannelHeartbeat] {
      [ChannelHeartbeat(channel: "fm", heardThrough: Date(timeIntervalSince1970: seconds))]
    }
    let now = Date()
    writer.submitHeartbeat(heartbeat(1000), now: now)
    writer.submitHeartbeat(heartbeat(1001), now: now)
    #expect(Wait.until(seconds: 120) { writer.backlog == 0 }, "each heartbeat is written while the play log takes them")
    let locker = try Locker(path)
    writer.submit(.event(channel: "fm", kind: .overrun, start: Date(timeIntervalSince1970: 1002), end: nil, detail: ""))
    #expect(Wait.until(seconds: 120) { writer.isFailing && writer.spooled == 1 })
    writer.submitHeartbeat(heartbeat(1010), now: now)
    writer.submitHeartbeat(heartbeat(1040), now: now.addingTimeInterval(30))
    writer.submitHeartbeat(heartbeat(1070), now: now.addingTimeInterval(PlayLogWriter.heartbeatSecondsWhileFailing))
    #expect(Wait.until(seconds: 120) { writer.spooled == 3 })
    #expect(writer.backlog == 3, "the heartbeat 30 s after the last queued one is dropped")
    locker.release()
    #expect(writer.stop().isEmpty)
    let rows = try Subprocess.run(
      "/usr/bin/sqlite3",
      [path, "SELECT c.name, h.heard_through_ms FROM channel_heartbeats h JOIN channels c ON c.id = h.channel_id"])
    #expect(rows.stdout == "fm|1070000\n", "\(rows)")
  }

  @Test(
    "alerts opened and closed while the play log is locked go to the spool; replayed twice they are one row each")
  func alertsGoThroughTheSpool() throws {
    let folder = try TemporaryDirectory(prefix: "writer-alerts")
    let path = folder.file("plays.sqlite").path
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log, retrySeconds: 0.2)
    let start = Date(timeIntervalSince1970: 2000)
    let end = Date(timeIntervalSince1970: 2030)
    writer.submit(.alertOpened(channel: "fm", kind: "silence", start: start, detail: "quiet"))
    Wait.until(seconds: 120) { writer.backlog == 0 }

    let locker = try Locker(path)
    writer.submit(.alertOpened(channel: nil, kind: "play_log_unwritable", start: start, detail: "locked"))
    writer.submit(.alertClosed(channel: "fm", kind: "silence", start: start, end: end, detail: "quiet"))
    writer.submit(.alertClosed(channel: nil, kind: "play_log_unwritable", start: start, end: end, detail: "locked"))
    Wait.until(seconds: 120) { writer.isFailing && writer.spooled == 3 }
    let spool = PlaySpool(playLogPath: path)
    let copy = folder.file("copy.spool").path
    try FileManager.default.copyItem(atPath: spool.path, toPath: copy)
    let leftover = writer.stop()
    #expect(leftover.spooled == 3 && leftover.unspooled.isEmpty, "\(leftover)")
    locker.release()

    let store = try PlayLogStore(path: path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 3)
    try FileManager.default.copyItem(atPath: copy, toPath: spool.path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 3, "the same writes again")
    let rows = try Subprocess.run(
      "/usr/bin/sqlite3", [path, "SELECT coalesce(channel_id, '-'), kind, start_ms, end_ms, detail FROM alerts"])
    #expect(
      rows.stdout == "1|silence|2000000|2030000|quiet\n-|play_log_unwritable|2000000|2030000|locked\n",
      "each alert once, closed: \(rows)")
  }

  @Test(
    "stretches and unknown segments written while the play log is locked wait in the spool and are written once")
  func stretchesAreSpooled() throws {
    let folder = try TemporaryDirectory(prefix: "writer-stretch")
    let path = folder.file("plays.sqlite").path
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log, retrySeconds: 0.2)
    let locker = try Locker(path)
    let unknown = AirStretchRecord(
      channel: "test-fm", start: Date(timeIntervalSince1970: 1000), end: Date(timeIntervalSince1970: 1200),
      label: "unknown-music", musicConfidence: 0.9,
      unknown: AirStretchRecord.Unknown(cluster: 4, clusterOffsetSeconds: 12.5, fingerprint: "QUJD"))
    let talk = AirStretchRecord(
      channel: "test-fm", start: Date(timeIntervalSince1970: 1200), end: Date(timeIntervalSince1970: 1230),
      label: "speech", musicConfidence: 0.1)
    writer.submit(.stretch(unknown))
    writer.submit(.stretch(talk))
    Wait.until(seconds: 120) { writer.isFailing && writer.spooled == 2 }
    #expect(writer.stop().spooled == 2)
    locker.release()
    let spool = PlaySpool(playLogPath: path)
    let copy = folder.file("copy.spool").path
    try FileManager.default.copyItem(atPath: spool.path, toPath: copy)
    let store = try PlayLogStore(path: path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 2)
    try FileManager.default.copyItem(atPath: copy, toPath: spool.path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 2, "replayed again: adds nothing")
    let rows = try Subprocess.run(
      "/usr/bin/sqlite3", [path, "SELECT label, start_ms FROM air_stretches ORDER BY start_ms"])
    #expect(rows.stdout == "unknown-music|1000000\nspeech|1200000\n", "\(rows)")
    let segments = try Subprocess.run(
      "/usr/bin/sqlite3", [path, "SELECT cluster, cluster_offset_ms, fingerprint FROM unknown_segments"])
    #expect(segments.stdout == "4|12500|QUJD\n", "\(segments)")
  }

  @Test("a stop waits for a long backlog that is being written: its timeout counts only time without progress")
  func stopWaitsForProgress() throws {
    let folder = try TemporaryDirectory(prefix: "writer-backlog")
    let path = folder.file("plays.sqlite").path
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: MonitorLog(write: { _ in }))
    for index in 0..<1000 {
      writer.submit(
        .start(token: writer.makeToken(), play: Self.play("play \(index)", start: 1000 + Double(index) * 60)))
    }
    let started = Date()
    let leftover = writer.stop(timeoutSeconds: 0.5)
    #expect(leftover.isEmpty, "\(leftover)")
    #expect(try PlayLogStore(path: path).plays().count == 1000, "written in \(Date().timeIntervalSince(started)) s")
    #expect(writer.stop(timeoutSeconds: 0.5).isEmpty, "a second stop returns at once")
  }

  @Test("when the spool cannot be written either, the writes are said to be at risk and a stop hands them back")
  func spoolNotWritable() throws {
    let folder = try TemporaryDirectory(prefix: "writer-nospool")
    let path = folder.file("plays.sqlite").path
    let lines = LineCollector()
    let spool = PlaySpool(playLogPath: path, directory: folder.file("missing").path)
    let writer = PlayLogWriter(
      store: try PlayLogStore(path: path), spool: spool, log: MonitorLog(write: { lines.append($0) }),
      retrySeconds: 0.2)
    let locker = try Locker(path)
    defer { locker.release() }
    writer.submit(.start(token: writer.makeToken(), play: Self.play("at risk", start: 1000)))
    Wait.until(seconds: 120) { writer.isFailing }
    let leftover = writer.stop()
    #expect(leftover.spooled == 0)
    #expect(leftover.unspooled.count == 1 && leftover.unspooled[0].contains(#""title":"at risk""#), "\(leftover)")
    #expect(leftover.spoolError?.contains("No such file or directory") == true, "\(leftover)")
    #expect(lines.text.contains("PLAYS AT RISK: cannot write the play spool \(spool.path)"), "\(lines.text)")
  }

  @Test("a play that continues an airing cut by a restart moves the recovered play on instead of adding one")
  func restOfAiringExtendsRecoveredPlay() throws {
    let folder = try TemporaryDirectory(prefix: "writer-reopen")
    let path = folder.file("plays.sqlite").path
    var cut = Self.play("song", start: 1000)
    cut.refOffsetSeconds = 3
    do {
      let store = try PlayLogStore(path: path)
      try store.record(cut)
      try store.recoverOpenPlays()
    }
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: MonitorLog(write: { _ in }))
    var rest = cut
    rest.start = cut.start.addingTimeInterval(15)
    rest.refOffsetSeconds = 18.2
    rest.end = rest.start.addingTimeInterval(6)
    rest.detectedAt = rest.end
    let token = writer.makeToken()
    writer.submit(.start(token: token, play: rest))
    writer.submit(
      .update(
        token: token, start: rest.start, end: cut.start.addingTimeInterval(200), refOffsetSeconds: 18.2, speed: 1,
        confidence: 0.8, closed: true))
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.count == 1, "one airing, one play: \(plays)")
    #expect(plays.first?.status == .closed)
    #expect(plays.first?.start == cut.start && plays.first?.refOffsetSeconds == 3, "the airing's start stays")
    #expect(plays.first?.end == cut.start.addingTimeInterval(200))
  }

  @Test("the rest of an airing heard again after a gap in the input continues the play the gap closed")
  func restOfAiringAfterGapContinuesClosedPlay() throws {
    let folder = try TemporaryDirectory(prefix: "writer-gap")
    let path = folder.file("plays.sqlite").path
    let lines = LineCollector()
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: MonitorLog(write: { lines.append($0) }))
    var first = Self.play("song", start: 1000)
    first.refOffsetSeconds = 3
    let firstToken = writer.makeToken()
    writer.submit(.start(token: firstToken, play: first))
    writer.submit(
      .update(
        token: firstToken, start: first.start, end: first.start.addingTimeInterval(40), refOffsetSeconds: 3,
        speed: 1, confidence: 0.9, closed: true))
    // jackd restarted: 6 s unheard, and the rest placed 0.7 s off the first part's alignment.
    var rest = first
    rest.start = first.start.addingTimeInterval(46)
    rest.refOffsetSeconds = 3 + 46 - 0.7
    rest.end = rest.start.addingTimeInterval(6)
    rest.detectedAt = rest.end
    let token = writer.makeToken()
    writer.submit(.start(token: token, play: rest))
    writer.submit(
      .update(
        token: token, start: rest.start, end: first.start.addingTimeInterval(200),
        refOffsetSeconds: rest.refOffsetSeconds,
        speed: 1, confidence: 0.8, closed: true))
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.count == 1, "one airing, one play: \(plays)")
    #expect(plays.first?.status == .closed)
    #expect(plays.first?.start == first.start && plays.first?.refOffsetSeconds == 3, "the airing's start stays")
    #expect(plays.first?.end == first.start.addingTimeInterval(200))
    #expect(lines.text.contains("continues play 1, cut by a gap in the input"), "\(lines.text)")
  }

  @Test("the rest of an airing first found on a repeated section continues the earlier play once moved to its line")
  func restOfAiringMovedOntoEarlierLineContinuesIt() throws {
    let folder = try TemporaryDirectory(prefix: "writer-moved")
    let path = folder.file("plays.sqlite").path
    let lines = LineCollector()
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: MonitorLog(write: { lines.append($0) }))
    var first = Self.play("song", start: 1000)
    first.refOffsetSeconds = 3
    let firstToken = writer.makeToken()
    writer.submit(.start(token: firstToken, play: first))
    writer.submit(
      .update(
        token: firstToken, start: first.start, end: first.start.addingTimeInterval(40), refOffsetSeconds: 3,
        speed: 1, confidence: 0.9, closed: true))
    // jackd restarted: 6 s unheard; the rest is first found on a chorus that recurs 2:52 into the song, a line far
    // from the first part's, and moved to its true line (1.1 s off the first part's) by a later update.
    var rest = first
    rest.start = first.start.addingTimeInterval(46)
    rest.refOffsetSeconds = 172
    rest.end = rest.start.addingTimeInterval(6)
    rest.detectedAt = rest.end
    let token = writer.makeToken()
    writer.submit(.start(token: token, play: rest))
    writer.submit(
      .update(
        token: token, start: rest.start, end: rest.start.addingTimeInterval(12), refOffsetSeconds: 3 + 46 - 1.1,
        speed: 1, confidence: 0.8, closed: false))
    writer.submit(
      .update(
        token: token, start: rest.start, end: first.start.addingTimeInterval(200), refOffsetSeconds: 3 + 46 - 1.1,
        speed: 1, confidence: 0.85, closed: true))
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.count == 1, "one airing, one play: \(plays)")
    #expect(plays.first?.status == .closed)
    #expect(plays.first?.start == first.start && plays.first?.refOffsetSeconds == 3, "the airing's start stays")
    #expect(plays.first?.end == first.start.addingTimeInterval(200))
    #expect(lines.text.contains("moved onto the line of play 1, cut by a gap in the input"), "\(lines.text)")
  }

  @Test("a play that moves to a line of its own stays a play of its own")
  func playMovedOffEveryEarlierLineStaysApart() throws {
    let folder = try TemporaryDirectory(prefix: "writer-apart")
    let path = folder.file("plays.sqlite").path
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: MonitorLog(write: { _ in }))
    let first = Self.play("song", start: 1000)
    let firstToken = writer.makeToken()
    writer.submit(.start(token: firstToken, play: first))
    writer.submit(
      .update(
        token: firstToken, start: first.start, end: first.start.addingTimeInterval(40), refOffsetSeconds: 0,
        speed: 1, confidence: 0.9, closed: true))
    // The song again from the top a minute later: its line refined by 2 s, still a whole minute from the first's.
    var again = first
    again.start = first.start.addingTimeInterval(60)
    again.refOffsetSeconds = 2
    again.end = again.start.addingTimeInterval(6)
    let token = writer.makeToken()
    writer.submit(.start(token: token, play: again))
    writer.submit(
      .update(
        token: token, start: again.start, end: again.start.addingTimeInterval(30), refOffsetSeconds: 0, speed: 1,
        confidence: 0.8, closed: true))
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.count == 2, "two airings, two plays: \(plays)")
  }

  @Test("a spool replayed after its writes reached the play log (a refined start, a continued play) adds nothing")
  func replayAfterWritesReachedPlayLog() throws {
    let folder = try TemporaryDirectory(prefix: "spool-again")
    let path = folder.file("plays.sqlite").path
    var cut = Self.play("cut", start: 1000)
    cut.refOffsetSeconds = 3
    let store = try PlayLogStore(path: path)
    try store.record(cut)
    try store.recoverOpenPlays()
    var rest = cut
    rest.start = cut.start.addingTimeInterval(15)
    rest.refOffsetSeconds = 18
    rest.detectedAt = rest.start.addingTimeInterval(5)
    rest.end = rest.detectedAt
    let refined = Self.play("refined", start: 2000)
    let spool = PlaySpool(playLogPath: path)
    try spool.append([
      PlaySpool.Entry(command: .start(token: 1, play: rest)),
      PlaySpool.Entry(command: Self.update(1, start: 1015, end: 1200, closed: true)),
      PlaySpool.Entry(command: .start(token: 2, play: refined)),
      PlaySpool.Entry(command: Self.update(2, start: 1995, end: 2100, closed: true)),
    ])
    let copy = folder.file("copy.spool").path
    try FileManager.default.copyItem(atPath: spool.path, toPath: copy)
    let log = MonitorLog(write: { _ in })
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 4)
    let once = try store.plays()
    #expect(once.map(\.metadata.title) == ["cut", "refined"], "\(once)")
    #expect(once.map(\.start) == [cut.start, Date(timeIntervalSince1970: 1995)])
    #expect(once.map(\.status) == [.closed, .closed])
    try FileManager.default.copyItem(atPath: copy, toPath: spool.path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: log) == 4)
    #expect(try store.plays() == once, "nothing added or changed")
  }

  /// A spool for `path` holding three plays' starts.
  static func spoolOfThree(_ path: String) throws -> PlaySpool {
    let spool = PlaySpool(playLogPath: path)
    try spool.append(
      ["one", "two", "three"].enumerated().map { index, title in
        PlaySpool.Entry(command: .start(token: UInt64(index + 1), play: play(title, start: 1000 + 100 * Double(index))))
      })
    return spool
  }

  @Test("a spool whose last record was cut off by a crash replays the records before it and says so")
  func cutSpoolTail() throws {
    let folder = try TemporaryDirectory(prefix: "spool-cut")
    let path = folder.file("plays.sqlite").path
    let spool = try Self.spoolOfThree(path)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: spool.path))
    try handle.truncate(atOffset: try handle.seekToEnd() - 20)
    try handle.close()
    let lines = LineCollector()
    let store = try PlayLogStore(path: path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: MonitorLog(write: { lines.append($0) })) == 2)
    #expect(try store.plays().map(\.metadata.title) == ["one", "two"])
    #expect(lines.text.contains("its last record was cut off at byte"), "\(lines.text)")
    #expect(!FileManager.default.fileExists(atPath: spool.path))
  }

  @Test("a spool damaged in the middle replays the records before the damage and keeps a copy")
  func damagedSpool() throws {
    let folder = try TemporaryDirectory(prefix: "spool-damaged")
    let path = folder.file("plays.sqlite").path
    let spool = try Self.spoolOfThree(path)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: spool.path))
    let second = try #require(bytes.range(of: Data(#""title":"two""#.utf8)))
    bytes[second.lowerBound + 9] = UInt8(ascii: "x")
    try bytes.write(to: URL(fileURLWithPath: spool.path))
    let lines = LineCollector()
    let store = try PlayLogStore(path: path)
    #expect(try PlayLogWriter.replay(spool, into: store, log: MonitorLog(write: { lines.append($0) })) == 1)
    #expect(try store.plays().map(\.metadata.title) == ["one"])
    #expect(lines.text.contains("play spool \(spool.path) is damaged at byte"), "\(lines.text)")
    #expect(lines.text.contains("checksum does not match"), "\(lines.text)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: spool.path + ".damaged")) == bytes)
  }

  @Test("a folder where the spool goes is a configuration error naming it, not a read error")
  func spoolNameTakenByAFolder() throws {
    let folder = try TemporaryDirectory(prefix: "spool-folder")
    let spool = PlaySpool(playLogPath: folder.file("plays.sqlite").path, directory: nil)
    try FileManager.default.createDirectory(atPath: spool.path, withIntermediateDirectories: true)
    let error = try #require(throws: ConfigurationError.self) { try spool.read() }
    #expect(error.keyPath == "spoolDirectory" && error.reason.contains("\(spool.path) is a folder; move it away"))
  }

  @Test("a spool of another play log is refused, naming both")
  func spoolOfAnotherPlayLog() throws {
    let folder = try TemporaryDirectory(prefix: "spool-other")
    let shared = folder.file("spools").path
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    let first = folder.file("a/plays.sqlite").path
    try PlaySpool(playLogPath: first, directory: shared).append([
      PlaySpool.Entry(command: .retract(token: 1))
    ])
    let second = PlaySpool(playLogPath: folder.file("b/plays.sqlite").path, directory: shared)
    #expect(
      performing: { try second.read() },
      throws: { error in
        "\(error)".contains("belongs to another play log") && "\(error)".contains(first)
          && "\(error)".contains("spoolDirectory")
      })
  }
}

/// The play log on a full disk and as a read-only file: a real small file system (tmpfs) filled to the last byte,
/// and the play log and its WAL made immutable (`chattr +i`, which refuses writes even through the writer's open
/// file, even to root). Both need root: the suite is skipped otherwise.
@Suite(
  "PlayLogWriter on a full disk and a read-only file",
  .enabled(if: getuid() == 0, "needs root to mount a small tmpfs and set the immutable flag"),
  .enabled(if: Subprocess.isInstalled("sqlite3"), "needs the sqlite3 command"), .serialized)
struct PlayLogWriterDiskTests {
  static func play(_ title: String, start: Double) -> PlayRecord { PlayLogWriterTests.play(title, start: start) }

  /// Submits a start and a closing update for each title; the plays are 100 s apart from `start`.
  static func submitPlays(_ titles: [String], start: Double, to writer: PlayLogWriter) {
    for (index, title) in titles.enumerated() {
      let token = writer.makeToken()
      let begin = start + Double(index) * 100
      writer.submit(.start(token: token, play: play(title, start: begin)))
      writer.submit(
        .update(
          token: token, start: Date(timeIntervalSince1970: begin), end: Date(timeIntervalSince1970: begin + 60),
          refOffsetSeconds: 0, speed: 1, confidence: 0.9, closed: true))
    }
  }

  /// Empties the WAL into the file, so the next commit must grow the WAL again.
  static func checkpoint(_ path: String) throws {
    let result = try Subprocess.run("sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE);"])
    try #require(result.status == 0 && result.stdout.hasPrefix("0|"), "checkpoint failed: \(result)")
  }

  /// A writer on a new play log at `path`, retrying each 0.2 s, with the play "before" written and the WAL emptied
  /// into the file; its log lines are collected.
  static func writerWithOnePlay(at path: String) throws -> (PlayLogWriter, LineCollector) {
    let lines = LineCollector()
    let writer = PlayLogWriter(
      store: try PlayLogStore(path: path), log: MonitorLog(write: { lines.append($0) }), retrySeconds: 0.2)
    submitPlays(["before"], start: 1000, to: writer)
    Wait.until(seconds: 120) { writer.backlog == 0 }
    try checkpoint(path)
    return (writer, lines)
  }

  @Test(
    "A full disk: the error names the file and the cause, plays wait, and are written once when space returns")
  func fullDisk() throws {
    let folder = try TemporaryDirectory(prefix: "writer-full")
    let disk = try SmallDisk(in: folder)
    defer { withExtendedLifetime(disk) {} }  // mounted to the end of the test
    let path = disk.file("plays.sqlite").path
    let (writer, lines) = try Self.writerWithOnePlay(at: path)
    let filler = try disk.fill()

    Self.submitPlays(["full-1", "full-2", "full-3"], start: 2000, to: writer)
    Wait.until(seconds: 120) { writer.isFailing }
    #expect(writer.isFailing)
    #expect(writer.backlog == 6)
    #expect(lines.text.contains("play log \(path) cannot be written"), "\(lines.text)")
    #expect(lines.text.contains("is full"), "\(lines.text)")
    #expect(lines.text.contains("SQLITE_FULL"), "\(lines.text)")
    // Logged once, not once per retry: three more attempts (one every 0.2 s) fail on the full disk meanwhile.
    let attempts = writer.writeLatency.snapshot.total
    #expect(Wait.until(seconds: 60) { writer.writeLatency.snapshot.total >= attempts + 3 }, "the writer retries")
    #expect(lines.text.components(separatedBy: "cannot be written").count == 2, "\(lines.text)")

    try FileManager.default.removeItem(at: filler)
    #expect(writer.stop().isEmpty)
    #expect(lines.text.contains("writable again"))
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.metadata.title) == ["before", "full-1", "full-2", "full-3"])
    #expect(plays.allSatisfy { $0.status == .closed })
  }

  @Test(
    "A read-only file: the error names it, plays wait, and are written once when it is writable again")
  func readOnlyFile() throws {
    let folder = try TemporaryDirectory(prefix: "writer-readonly")
    let path = folder.file("plays.sqlite").path
    let (writer, lines) = try Self.writerWithOnePlay(at: path)
    let files = [path, path + "-wal"]
    let immutable = try Subprocess.run("chattr", ["+i"] + files)
    try #require(immutable.status == 0, "chattr +i failed (the file system must support it): \(immutable)")
    defer { _ = try? Subprocess.run("chattr", ["-i"] + files) }

    Self.submitPlays(["held-1", "held-2"], start: 2000, to: writer)
    Wait.until(seconds: 120) { writer.isFailing }
    #expect(writer.isFailing)
    #expect(writer.backlog == 4)
    #expect(lines.text.contains("play log \(path) cannot be written"), "\(lines.text)")
    #expect(lines.text.contains("is read-only"), "\(lines.text)")

    let writable = try Subprocess.run("chattr", ["-i"] + files)
    try #require(writable.status == 0, "chattr -i failed: \(writable)")
    #expect(writer.stop().isEmpty)
    #expect(lines.text.contains("writable again"), "\(lines.text)")
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.metadata.title) == ["before", "held-1", "held-2"])
    #expect(plays.allSatisfy { $0.status == .closed })
  }
}

/// Collects log lines from any thread.
final class LineCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var text: String { lock.withLock { lines.joined() } }
}
