import Foundation
import Testing

@testable import Reports

@Suite("PlayLogLock")
struct PlayLogLockTests {
  /// Takes the lock again after it was let go, retrying for up to `seconds`: a process that another test spawns
  /// from this one holds a copy of every descriptor between its fork and its exec (close-on-exec closes it only
  /// then), so the lock can stay taken for a moment after `release()`.
  static func relock(_ playLog: String, command: String = "run", seconds: Double = 5) throws -> PlayLogLock {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      do {
        return try PlayLogLock(playLog: playLog, command: command)
      } catch let error as PlayLogLockError where error.isHeld && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
  }

  @Test("A second lock on a play log is refused, naming the first owner's command, pid, host and start time")
  func secondLockIsRefused() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      let before = Date().addingTimeInterval(-1)
      let first = try PlayLogLock(playLog: playLog, command: "run")
      let error = try #require(throws: PlayLogLockError.self) { try PlayLogLock(playLog: playLog, command: "scan") }
      guard case .held(let heldLog, let lockPath, let owner?) = error else {
        Issue.record("not a held lock naming its owner: \(error)")
        return
      }
      #expect(heldLog == playLog && lockPath == playLog + ".lock" && error.isHeld)
      #expect(owner.pid == getpid() && owner.command == "run" && !owner.host.isEmpty)
      #expect(owner.since >= before && owner.since <= Date().addingTimeInterval(1))
      let message = error.description
      for part in ["play log \(playLog) is in use", "`run`", "pid \(getpid())", "host \(owner.host)", "--db"] {
        #expect(message.contains(part), "\(part) in: \(message)")
      }
      withExtendedLifetime(first) {}
    }
  }

  @Test("A play log named through a symbolic link (of the file or of its folder) has the file's own lock")
  func linkedPlayLogSharesTheLock() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      _ = FileManager.default.createFile(atPath: playLog, contents: Data())
      let link = folder.appendingPathComponent("link.sqlite").path
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "plays.sqlite")
      let folderLink = folder.appendingPathComponent("elsewhere").path
      try FileManager.default.createSymbolicLink(atPath: folderLink, withDestinationPath: folder.path)
      let first = try PlayLogLock(playLog: playLog, command: "run")
      for other in [link, folderLink + "/plays.sqlite", folderLink + "/link.sqlite"] {
        let error = try #require(throws: PlayLogLockError.self, "\(other)") {
          try PlayLogLock(playLog: other, command: "run")
        }
        #expect(error.isHeld, "\(other): \(error)")
      }
      #expect(!FileManager.default.fileExists(atPath: link + ".lock"))
      // A play log not made yet, in a linked folder: the lock beside where it will be.
      #expect(PlayLogLock.lockPath(forPlayLog: folderLink + "/new.sqlite") == folder.path + "/new.sqlite.lock")
      withExtendedLifetime(first) {}
    }
  }

  @Test("A released lock can be taken again, and the lock file then names its new owner")
  func releasedLockIsFree() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      let scan = try PlayLogLock(playLog: playLog, command: "scan")
      scan.release()
      scan.release()  // a second release does nothing
      let run = try Self.relock(playLog)
      let text = try String(contentsOfFile: run.lockPath, encoding: .utf8)
      let owner = try #require(PlayLogLock.Owner(fileText: text), "\(text)")
      #expect(owner.command == "run" && owner.pid == getpid())
      #expect(text.split(separator: "\n").count == 4, "the file is rewritten, not appended to: \(text)")
      withExtendedLifetime(run) {}
    }
  }

  @Test("A program the owner starts does not inherit the lock: it is free as soon as the owner lets it go")
  func childDoesNotInherit() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      let owner = try PlayLogLock(playLog: playLog, command: "run")
      // An ffmpeg child of a monitor killed with SIGKILL outlives it for a moment; `sleep` stands in for it.
      var child: pid_t = 0
      let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
      defer { for pointer in argv { free(pointer) } }
      try #require(posix_spawn(&child, "/bin/sleep", nil, nil, argv, environ) == 0)
      defer {
        kill(child, SIGKILL)
        var status: Int32 = 0
        waitpid(child, &status, 0)
      }
      owner.release()
      let next = try Self.relock(playLog, seconds: 2)  // the child lives 30 s: an inherited lock would not go
      withExtendedLifetime(next) {}
    }
  }

  @Test(
    "A lock file another user created, which this one cannot write, still locks",
    .enabled(if: getuid() != 0, "root may write any file"))
  func readOnlyLockFile() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      let created = FileManager.default.createFile(
        atPath: playLog + ".lock", contents: Data(), attributes: [.posixPermissions: 0o444])
      try #require(created)
      let first = try PlayLogLock(playLog: playLog, command: "run")
      let error = try #require(throws: PlayLogLockError.self) { try PlayLogLock(playLog: playLog, command: "run") }
      #expect(error.isHeld, "\(error)")
      withExtendedLifetime(first) {}
    }
  }

  @Test("Dropping a lock releases it")
  func droppedLockIsFree() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      do { _ = try PlayLogLock(playLog: playLog, command: "run") }
      _ = try Self.relock(playLog)
    }
  }

  @Test("A lock file that names no owner still refuses, and says how to find the holder")
  func ownerlessLockFile() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("plays.sqlite").path
      let first = try PlayLogLock(playLog: playLog, command: "run")
      try Data().write(to: URL(fileURLWithPath: first.lockPath))
      let error = try #require(throws: PlayLogLockError.self) { try PlayLogLock(playLog: playLog, command: "run") }
      #expect(error == .held(playLog: playLog, lockPath: first.lockPath, owner: nil))
      #expect(error.description.contains("fuser -v \(first.lockPath)"), "\(error)")
      withExtendedLifetime(first) {}
    }
  }

  @Test("A lock file that cannot be created gives an error naming it, the cause and the fix")
  func unusableLockFile() throws {
    try withTemporaryDirectory { folder in
      let playLog = folder.appendingPathComponent("missing/plays.sqlite").path
      let error = try #require(throws: PlayLogLockError.self) { try PlayLogLock(playLog: playLog, command: "run") }
      #expect(!error.isHeld)
      #expect(error.description.contains("\(playLog).lock"), "\(error)")
      #expect(error.description.contains("No such file or directory"), "\(error)")
      #expect(error.description.contains("Check that the folder exists"), "\(error)")
      let link = folder.appendingPathComponent("linked.sqlite").path
      try FileManager.default.createSymbolicLink(atPath: link + ".lock", withDestinationPath: "/etc/hostname")
      #expect(throws: PlayLogLockError.self, "a symbolic link is not followed") {
        try PlayLogLock(playLog: link, command: "run")
      }
    }
  }

  @Test("An in-memory play log takes no lock and leaves no file")
  func inMemory() throws {
    let first = try PlayLogLock(playLog: ":memory:", command: "run")
    let second = try PlayLogLock(playLog: ":memory:", command: "run")
    #expect(!FileManager.default.fileExists(atPath: ":memory:.lock"))
    withExtendedLifetime((first, second)) {}
  }

  @Test("An owner survives its lock file text, and damaged text names no owner")
  func ownerText() {
    let owner = PlayLogLock.Owner(
      pid: 4242, host: "studio-1", since: Date(timeIntervalSince1970: 1_796_000_472.345), command: "scan")
    #expect(PlayLogLock.Owner(fileText: owner.fileText) == owner)
    #expect(PlayLogLock.Owner(fileText: "") == nil)
    #expect(PlayLogLock.Owner(fileText: "pid=x\nhost=a\nsince=2026-01-01T00:00:00Z\ncommand=run\n") == nil)
  }
}
