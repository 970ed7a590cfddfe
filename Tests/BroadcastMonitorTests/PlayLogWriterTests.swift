import Foundation
import Reports
import TestSupport
import Testing

@testable import BroadcastMonitor

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
    #expect(plays.map(\.title) == ["one"])
    #expect(plays.first?.status == .closed)
    #expect(plays.first?.start == Date(timeIntervalSince1970: 999.5), "the matcher's refined start")
    #expect(plays.first?.end == Date(timeIntervalSince1970: 1180))
    #expect(plays.first?.speed == 1.02)
  }

  @Test("a locked play log holds the writes in memory and writes each once when the lock goes", .timeLimit(.minutes(1)))
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
    input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nINSERT INTO channels(name) VALUES('lock');\n".utf8))
    Thread.sleep(forTimeInterval: 0.5)

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
    #expect(plays.map(\.title) == ["held"])
    #expect(plays.first?.status == .closed)
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

  static func waitUntil(_ condition: () -> Bool, seconds: Double = 20) {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
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
    waitUntil { writer.backlog == 0 }
    try checkpoint(path)
    return (writer, lines)
  }

  @Test(
    "A full disk: the error names the file and the cause, plays wait, and are written once when space returns",
    .timeLimit(.minutes(1)))
  func fullDisk() throws {
    let folder = try TemporaryDirectory(prefix: "writer-full")
    let mountPoint = folder.file("disk")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    let mount = try Subprocess.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
    try #require(mount.status == 0, "cannot mount a tmpfs: \(mount)")
    defer { _ = try? Subprocess.run("umount", ["-l", mountPoint.path]) }
    let path = mountPoint.appendingPathComponent("plays.sqlite").path
    let (writer, lines) = try Self.writerWithOnePlay(at: path)

    // Fill the disk to the last block.
    let filler = mountPoint.appendingPathComponent("filler")
    _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    let block = Data(count: 4096)
    while (try? handle.write(contentsOf: block)) != nil {}
    try? handle.close()

    Self.submitPlays(["full-1", "full-2", "full-3"], start: 2000, to: writer)
    Self.waitUntil { writer.isFailing }
    #expect(writer.isFailing)
    #expect(writer.backlog == 6)
    #expect(lines.text.contains("play log \(path) cannot be written"), "\(lines.text)")
    #expect(lines.text.contains("is full"), "\(lines.text)")
    #expect(lines.text.contains("SQLITE_FULL"), "\(lines.text)")
    // Logged once, not once per retry.
    Thread.sleep(forTimeInterval: 1)
    #expect(lines.text.components(separatedBy: "cannot be written").count == 2, "\(lines.text)")

    try FileManager.default.removeItem(at: filler)
    #expect(writer.stop().isEmpty)
    #expect(lines.text.contains("writable again"))
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.title) == ["before", "full-1", "full-2", "full-3"])
    #expect(plays.allSatisfy { $0.status == .closed })
  }

  @Test(
    "A read-only file: the error names it, plays wait, and are written once when it is writable again",
    .timeLimit(.minutes(1)))
  func readOnlyFile() throws {
    let folder = try TemporaryDirectory(prefix: "writer-readonly")
    let path = folder.file("plays.sqlite").path
    let (writer, lines) = try Self.writerWithOnePlay(at: path)
    let files = [path, path + "-wal"]
    let immutable = try Subprocess.run("chattr", ["+i"] + files)
    try #require(immutable.status == 0, "chattr +i failed (the file system must support it): \(immutable)")
    defer { _ = try? Subprocess.run("chattr", ["-i"] + files) }

    Self.submitPlays(["held-1", "held-2"], start: 2000, to: writer)
    Self.waitUntil { writer.isFailing }
    #expect(writer.isFailing)
    #expect(writer.backlog == 4)
    #expect(lines.text.contains("play log \(path) cannot be written"), "\(lines.text)")
    #expect(lines.text.contains("is read-only"), "\(lines.text)")

    let writable = try Subprocess.run("chattr", ["-i"] + files)
    try #require(writable.status == 0, "chattr -i failed: \(writable)")
    #expect(writer.stop().isEmpty)
    #expect(lines.text.contains("writable again"), "\(lines.text)")
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.title) == ["before", "held-1", "held-2"])
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
