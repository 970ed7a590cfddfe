import Foundation
import TestSupport
import Testing

@testable import Common

@Suite("FFmpegProcess (with /bin/sh standing in for ffmpeg)")
struct FFmpegProcessTests {
  @Test("Output, the last line of standard error without its [tag] prefix, and the exit status")
  func outputAndExit() throws {
    let process = try FFmpegProcess(
      executable: "/bin/sh", arguments: ["-c", "printf abcd; echo '[ogg @ 0x1] first' >&2; echo 'x: last' >&2; exit 3"])
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    let deadline = Date().addingTimeInterval(5)
    reading: while Date() < deadline {
      switch buffer.withUnsafeMutableBytes({ process.readOutput(into: $0) }) {
      case .bytes(let n): received += buffer[0..<n]
      case .nothingYet: Thread.sleep(forTimeInterval: 0.01)
      case .end: break reading
      }
    }
    #expect(received == Array("abcd".utf8))
    #expect(process.waitForExit(seconds: 5) == .exited(status: 3))
    process.drainErrors()
    #expect(process.lastMessage == "x: last")
    #expect(!ProcessTable.isChildOfThisProcess(process.processID))
  }

  @Test("A last line that only says Input/output error comes with the line before it, which names the cause")
  func inputOutputErrorWithItsCause() throws {
    let process = try FFmpegProcess(
      executable: "/bin/sh",
      arguments: [
        "-c",
        "echo '[tcp @ 0x1] Failed to resolve hostname x.invalid: Name or service not known' >&2; "
          + "echo 'http://x.invalid/live: Input/output error' >&2; exit 1",
      ])
    #expect(process.waitForExit(seconds: 5) == .exited(status: 1))
    process.drainErrors()
    #expect(
      process.lastMessage
        == "Failed to resolve hostname x.invalid: Name or service not known; http://x.invalid/live: Input/output error")
  }

  @Test("terminate: SIGTERM, then SIGKILL after 2 s for a process that ignores it; always reaped")
  func terminateStubbornProcess() throws {
    let polite = try FFmpegProcess(executable: "/bin/sh", arguments: ["-c", "exec sleep 30"])
    let started = Date()
    #expect(polite.terminate() == .signaled(SIGTERM))
    #expect(Date().timeIntervalSince(started) < 1)
    #expect(!ProcessTable.isChildOfThisProcess(polite.processID))

    let folder = try TemporaryDirectory(prefix: "ffmpeg-process-trap")
    let trapped = folder.file("trapped")
    let stubborn = try FFmpegProcess(
      executable: "/bin/sh",
      arguments: ["-c", "trap '' TERM; : > \"$0\"; while :; do sleep 0.1; done", trapped.path])
    // The shell says when its trap is in place.
    #expect(Wait.until(seconds: 10) { FileManager.default.fileExists(atPath: trapped.path) })
    let killedAt = Date()
    #expect(stubborn.terminate() == .signaled(SIGKILL))
    let waited = Date().timeIntervalSince(killedAt)
    #expect(waited >= 1.9 && waited < 3.5, "\(waited) s")
    #expect(!ProcessTable.isChildOfThisProcess(stubborn.processID))
    #expect(stubborn.terminate() == .signaled(SIGKILL))  // again: nothing more happens
  }

  @Test("The child has its standard streams and no other descriptor of the parent, close-on-exec or not")
  func childInheritsOnlyItsStreams() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)  // a plain pipe, without close-on-exec, as a library might leave open
    defer { for end in ends { close(end) } }
    let process = try FFmpegProcess(executable: "/bin/sleep", arguments: ["30"])
    defer { _ = process.terminate() }
    // posix_spawn returns once the child runs the program, so its descriptors are final.
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processID)/fd")
    #expect(descriptors.sorted() == ["0", "1", "2"])
  }

  @Test("A child's environment is this process's without systemd's notify protocol, which addresses the monitor")
  func childEnvironmentLeavesOutNotifyVariables() throws {
    let folder = try TemporaryDirectory(prefix: "ffmpeg-process-environment")
    let listing = folder.file("environment")
    let environment = FFmpegProcess.childEnvironment(of: [
      "NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1",
      "PATH": "/usr/bin:/bin", "ALERT_KIND": "silence",
    ])
    let pid = try FFmpegProcess.spawn(executable: "/usr/bin/env", arguments: [], environment: environment) { files in
      posix_spawn_file_actions_addopen(&files, 1, listing.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    var status: Int32 = 0
    #expect(waitpid(pid, &status, 0) == pid)
    let lines = try String(contentsOf: listing, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.sorted() == ["ALERT_KIND=silence", "PATH=/usr/bin:/bin"])
  }

  @Test("A program that does not exist is an error, not a crash")
  func missingProgram() {
    #expect(throws: FFmpegProcess.SpawnError.self) {
      try FFmpegProcess(executable: "/nonexistent/ffmpeg", arguments: [])
    }
  }
}
