import CJack
import Foundation
import Synchronization

/// A private `jackd -d dummy -r 48000 -p 1024` for one test, under a unique server name (`bmtest-<pid>-<n>`), so the
/// tests neither depend on nor disturb any server already running. The dummy driver needs no sound card.
///
/// jackd runs under `timeout`, so it goes away after two minutes even if the test process dies first.
/// Threads: use one instance from one test at a time.
final class JackTestServer {
  /// jackd's path, or `nil` when it is not installed (then the JACK tests are skipped).
  static let jackdPath: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
    return dirs.map { "\($0)/jackd" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  static let skipMessage = "jackd is not installed: `apt-get install jackd2` to run the JACK tests"

  private static let started = Atomic<Int>(0)

  let name: String
  let sampleRate = 48_000
  let period = 1024
  private let process: SpawnedProcess
  private let logPath: String

  struct StartError: Error, CustomStringConvertible {
    let description: String
  }

  /// Starts jackd and returns once a client can connect to it.
  init() throws {
    guard let jackd = Self.jackdPath else { throw StartError(description: Self.skipMessage) }
    let number = Self.started.wrappingAdd(1, ordering: .relaxed).newValue
    name = "bmtest-\(getpid())-\(number)"
    logPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log").path
    process = try SpawnedProcess(
      executable: "/usr/bin/timeout",
      arguments: ["-k", "5", "120", jackd, "-n", name, "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"],
      environment: ["JACK_NO_AUDIO_RESERVATION": "1"], outputPath: logPath)
    try waitUntilReady()
  }

  deinit { stop() }

  /// What jackd printed so far, for failure messages.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Stops jackd (SIGTERM, forwarded by `timeout`) and waits for it to exit. Calling it again does nothing.
  /// Also removes what clients of this server left in /dev/shm (JACK leaves a client's semaphore there when the
  /// server dies under it).
  func stop() {
    process.terminateAndWait()
    try? FileManager.default.removeItem(atPath: logPath)
    let shm = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
    for file in shm where file.contains("_\(name)_") {
      try? FileManager.default.removeItem(atPath: "/dev/shm/\(file)")
    }
  }

  /// Full names of the server's ports matching `pattern` with all of `flags` set, seen by a client of our own.
  func ports(matching pattern: String, flags: JackPortFlags) -> [String] {
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
        throw StartError(description: "jackd exited early:\n\(log)")
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
    stop()
    throw StartError(description: "jackd -n \(name) did not accept clients within 15 s:\n\(log)")
  }
}
