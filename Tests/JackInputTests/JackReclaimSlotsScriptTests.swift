import Foundation
import JackTestSupport
import TestSupport
import Testing

/// `scripts/jack-reclaim-slots.py`, which `.ci/run` and `scripts/first-run.sh` run before they start jackd: JACK 2's
/// registry has 8 server slots, and a killed jackd keeps its slot until a server of its name starts again.
@Suite(.serialized, .enabled(if: JackTestServer.jackdPath != nil, "\(JackTestServer.skipMessage)"))
struct JackReclaimSlotsScriptTests {
  static let script = Fixtures.packageRoot.appendingPathComponent("scripts/jack-reclaim-slots.py").path

  static func runScript(_ arguments: [String] = []) throws -> Subprocess.Result {
    try Subprocess.run("python3", [script] + arguments)
  }

  @Test("A killed jackd's registry slot and files are freed by the script, and a running server's slot is kept")
  func killedServersSlotIsFreed() async throws {
    let jackdPath = try #require(JackTestServer.jackdPath)
    let running = try await JackTestServer.start()
    defer { running.stop() }
    let directory = try TemporaryDirectory(prefix: "jack-reclaim")
    let killedName = "bmtest-killed-\(getpid())"
    let killed = try BackgroundProcess(
      executable: jackdPath, arguments: ["-n", killedName, "-d", "dummy", "-r", "48000", "-p", "1024"],
      environment: ["JACK_NO_AUDIO_RESERVATION": "1"], outputPath: directory.file("jackd.log").path)
    let listedRunning = try Wait.until(seconds: 15, pollSeconds: 0.1) {
      try Self.runScript(["--check"]).stdout.contains("server '\(killedName)' (pid \(killed.pid)) running")
    }
    let listing = try Self.runScript(["--check"])
    #expect(listedRunning, "'\(killedName)' never listed as running:\n\(listing)\n\(killed.output)")

    killed.send(SIGKILL)
    #expect(killed.waitForExit(seconds: 10) != nil)
    let check = try Self.runScript(["--check"])
    #expect(check.stdout.contains("server '\(killedName)' (pid \(killed.pid)) is gone but holds its slot"), "\(check)")
    #expect(check.stdout.contains("server '\(running.name)'"), "\(check)")

    let reclaim = try Self.runScript()
    #expect(reclaim.status == 0, "\(reclaim)")
    #expect(reclaim.stdout.contains("of server '\(killedName)' (pid \(killed.pid) is gone)"), "\(reclaim)")
    #expect(!reclaim.stdout.contains("'\(running.name)'"), "\(reclaim)")

    let after = try Self.runScript(["--check"])
    #expect(!after.stdout.contains(killedName), "\(after)")
    #expect(after.stdout.contains("server '\(running.name)' (pid "), "\(after)")
    #expect(after.stdout.contains("running"), "\(after)")
    let shm = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
    #expect(shm.filter { $0.contains("_\(killedName)_") }.isEmpty, "\(shm.filter { $0.contains(killedName) })")
  }
}
