import CJack
import Foundation
import Synchronization
import TestSupport

/// A private `jackd -d dummy -r 48000 -p 1024` for one test, under a unique server name (`bmtest-<pid>-<n>`), so the
/// tests neither depend on nor disturb any server already running. The dummy driver needs no sound card.
///
/// jackd runs under `timeout`, so it goes away after 15 minutes even if the test process dies first: longer than any
/// test holds a server, even on a CI machine so loaded that a waiting test resumes minutes late. Its client timeout is
/// 4 s (`-t 4000`; the most a realtime server allows is 5 s): jackd kicks out a client that answers a notification
/// later than that, and its default of 0.5 s is short for a stalled test process.
///
/// One server at a time per process: libjack keeps the graph of the server its clients talk to in process-wide
/// globals, so clients of two servers in one process see each other's graphs and crash. `start()` therefore waits
/// until no other test of this process holds a server (in any suite or test target), and `stop()` lets the next one
/// start. Every test that opens a JACK client must hold a `JackTestServer` while it does.
///
/// Threads: use one instance from one test at a time.
public final class JackTestServer {
  /// jackd's path, or `nil` when it is not installed (then the JACK tests are skipped).
  public static let jackdPath: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
    return dirs.map { "\($0)/jackd" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  public static let skipMessage = "jackd is not installed: `apt-get install jackd2` to run the JACK tests"

  private static let started = Atomic<Int>(0)
  /// Held from `start()` until `stop()`: one server, and one test using JACK, at a time in this process.
  private static let oneAtATime = AsyncMutex()

  /// The server's name, for `jackd -n`, `serverName:` and `--server`.
  public let name: String
  public let sampleRate = 48_000
  public let period = 1024
  private var process: BackgroundProcess
  private let logPath: String
  private let holdsLock = Atomic<Bool>(true)

  public struct StartError: Error, CustomStringConvertible {
    public let description: String
  }

  /// Waits until no other test of this process holds a server, then starts jackd and returns once a client can
  /// connect to it.
  public static func start() async throws -> JackTestServer {
    await oneAtATime.lock()
    do {
      return try JackTestServer()
    } catch {
      oneAtATime.unlock()
      throw error
    }
  }

  private init() throws {
    guard let jackd = Self.jackdPath else { throw StartError(description: Self.skipMessage) }
    let number = Self.started.wrappingAdd(1, ordering: .relaxed).newValue
    name = "bmtest-\(getpid())-\(number)"
    logPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log").path
    process = try Self.spawn(jackd, name: name, sampleRate: sampleRate, period: period, logPath: logPath)
    do {
      try waitUntilReady()
    } catch {
      holdsLock.store(false, ordering: .relaxed)  // `start()` unlocks
      kill()
      throw error
    }
  }

  deinit { stop() }

  private static func spawn(
    _ jackd: String, name: String, sampleRate: Int, period: Int, logPath: String
  ) throws -> BackgroundProcess {
    try BackgroundProcess(
      executable: "/usr/bin/timeout",
      arguments: [
        "-k", "5", "900", jackd, "-n", name, "-t", "4000", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)",
      ],
      environment: ["JACK_NO_AUDIO_RESERVATION": "1"], outputPath: logPath)
  }

  /// Starts jackd again under the same name after `kill()` (a server that crashed and was restarted), and returns
  /// once a client can connect to it. Keeps this test's turn.
  public func restart() throws {
    guard let jackd = Self.jackdPath else { throw StartError(description: Self.skipMessage) }
    kill()
    process = try Self.spawn(jackd, name: name, sampleRate: sampleRate, period: period, logPath: logPath)
    try waitUntilReady()
  }

  /// What jackd printed so far, for failure messages.
  public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Stops jackd and lets the next test start its server. Calling it again does nothing. Close this test's JACK
  /// clients first (declare the server before them, so that its `defer { server.stop() }` runs last): a client still
  /// open when the next test's server starts would share libjack's globals with it.
  public func stop() {
    kill()
    if holdsLock.exchange(false, ordering: .acquiringAndReleasing) { Self.oneAtATime.unlock() }
  }

  /// Stops jackd (SIGTERM, forwarded by `timeout`) and waits for it to exit, but keeps this test's turn: for tests
  /// of a server that goes away under its clients. `stop()` still has to follow. Calling it again does nothing.
  /// Also removes what clients of this server left in /dev/shm (JACK leaves a client's semaphore there when the
  /// server dies under it).
  public func kill() {
    process.terminateAndWait()
    try? FileManager.default.removeItem(atPath: logPath)
    let shm = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
    for file in shm where file.contains("_\(name)_") {
      try? FileManager.default.removeItem(atPath: "/dev/shm/\(file)")
    }
  }

  /// Full names of the server's ports matching `pattern` with all of `flags` set, seen by a client of our own.
  public func ports(matching pattern: String, flags: JackPortFlags) -> [String] {
    var status = JackStatus(rawValue: 0)
    guard let probe = bm_jack_client_open("bmtest-probe", name, 1, &status) else { return [] }
    defer { jack_client_close(probe) }
    guard let list = jack_get_ports(probe, pattern, nil, UInt(flags.rawValue)) else { return [] }
    defer { jack_free(list) }
    var names: [String] = []
    var i = 0
    while let port = list[i] {
      names.append(String(cString: port))
      i += 1
    }
    return names
  }

  /// Polls until a client can open on the server: first for its socket in /dev/shm (quietly), then by opening one.
  private func waitUntilReady() throws {
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
      guard process.isRunning else {
        let log = self.log
        let fix =
          log.contains("Too many servers already active")
          ? "JACK's registry of 8 servers is full, likely of servers killed earlier: "
            + "`python3 scripts/jack-reclaim-slots.py` frees the slots of those no longer running\n" : ""
        throw StartError(description: "jackd exited early:\n\(fix)\(log)")
      }
      let shm = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
      let socketSeen = shm.contains { $0.hasPrefix("jack_\(name)_") }
      if socketSeen || Date() > deadline.addingTimeInterval(-10) {
        var status = JackStatus(rawValue: 0)
        if let probe = bm_jack_client_open("bmtest-ready", name, 1, &status) {
          jack_client_close(probe)
          return
        }
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw StartError(description: "jackd -n \(name) did not accept clients within 15 s:\n\(log)")
  }
}
