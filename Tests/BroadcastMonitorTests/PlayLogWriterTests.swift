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
        token: first, end: Date(timeIntervalSince1970: 1180), refOffsetSeconds: 2, speed: 1.02, confidence: 0.7,
        closed: true))
    writer.submit(.retract(token: second))
    writer.submit(
      .event(channel: "test-fm", kind: .gap, start: Date(timeIntervalSince1970: 1200), end: nil, detail: "dropped"))
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: path).plays()
    #expect(plays.map(\.title) == ["one"])
    #expect(plays.first?.status == .closed)
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
        token: token, end: Date(timeIntervalSince1970: 2030), refOffsetSeconds: 0, speed: 1, confidence: 0.8,
        closed: true))
    let deadline = Date().addingTimeInterval(20)
    while !writer.isFailing && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    #expect(writer.isFailing)
    #expect(writer.backlog == 2)
    #expect(lines.text.contains("plays.sqlite cannot be written"), "\(lines.text)")

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

/// Collects log lines from any thread.
final class LineCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var text: String { lock.withLock { lines.joined() } }
}
