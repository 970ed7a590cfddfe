import Foundation
import Reports
import Synchronization
import TestSupport
import Testing

/// A slow and hostile HTTP load against a monitor of 16 channels must not change what it logs: the same plays as
/// without the server, and no overrun.
@Suite(
  "HTTP API under load", .serialized, .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct HTTPLoadTests {
  static let channelCount = 16
  /// Connections held open during the run: half send an unfinished request and wait (slowloris), half open an
  /// event stream and never read it.
  static let heldConnections = 200
  /// Threads sending requests one after the other, as fast as the server answers.
  static let floodThreads = 4

  @Test("200 held connections and a flood of requests: 0 overruns and the same plays as without the server")
  func load() throws {
    let folder = try TemporaryDirectory(prefix: "http-load")
    let catalog = folder.file("music.bmcat")
    try CLI.makeCatalog(at: catalog)
    let fixtures = ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"]
    func arguments(_ db: String) -> [String] {
      ["--catalog", catalog.path, "--db", db]
        + (0..<Self.channelCount).flatMap { index in
          ["--channel", "ch\(index)=file:" + Fixtures.music(fixtures[index % fixtures.count]).path]
        }
    }

    // Without the server.
    let quietDB = folder.file("quiet.sqlite").path
    let quiet = try RunningMonitor(
      ["--http", "off"] + arguments(quietDB), folder: folder, name: "quiet", waitForHTTP: false)
    try quiet.waitForLog("play ended", count: Self.channelCount)
    #expect(quiet.stop() == 0)
    let quietPlays = try Self.plays(quietDB)
    #expect(quietPlays.count == Self.channelCount, "\(quietPlays)")

    // With it, under load.
    let loadedDB = folder.file("loaded.sqlite").path
    let loaded = try RunningMonitor(arguments(loadedDB), folder: folder, name: "loaded")
    var held: [Int32] = []
    defer { for fd in held { close(fd) } }
    for index in 0..<Self.heldConnections {
      let fd = try HTTPTestClient.connect(port: loaded.port)
      let request =
        index % 2 == 0
        ? "GET /api/v1/channels HTTP/1.1\r\nHost: 127.0.0.1\r\n" : "GET /api/v1/events/stream HTTP/1.1\r\n\r\n"
      _ = send(fd, request, request.utf8.count, Int32(MSG_NOSIGNAL))
      held.append(fd)
    }
    let stop = Atomic<Bool>(false)
    let results = Mutex<(answered: Int, failed: [String], latencies: [Double])>((0, [], []))
    let paths = [
      "/api/v1/channels", "/metrics", "/api/v1/plays?limit=100", "/healthz", "/api/v1/events",
      "/api/v1/reports/airplay.csv?tz=UTC",
    ]
    let port = loaded.port
    let group = DispatchGroup()
    for thread in 0..<Self.floodThreads {
      DispatchQueue.global().async(group: group) {
        var index = thread
        while !stop.load(ordering: .relaxed) {
          let path = paths[index % paths.count]
          index += 1
          let began = ContinuousClock.now
          let response = try? HTTPTestClient.get(path, port: port)
          let elapsed = ContinuousClock.now - began
          results.withLock {
            if let response, response.status == 200 || (path == "/healthz" && response.status == 503) {
              $0.answered += 1
              $0.latencies.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
            } else {
              $0.failed.append("\(path): \(response.map { "\($0.status) \($0.body.prefix(200))" } ?? "no answer")")
            }
          }
        }
      }
    }
    try loaded.waitForLog("play ended", count: Self.channelCount)
    stop.store(true, ordering: .relaxed)
    group.wait()
    let channels = try loaded.get("/api/v1/channels").json()["channels"] as? [[String: Any]] ?? []
    #expect(channels.count == Self.channelCount)
    #expect(channels.allSatisfy { $0["overruns"] as? Int == 0 }, "\(channels)")
    // A stop with the connections still held is as quick as without: systemd gives the monitor 15 s.
    let stopping = Date()
    #expect(loaded.stop() == 0, "\(loaded.output)")
    #expect(Date().timeIntervalSince(stopping) < 10, "stopped in \(Date().timeIntervalSince(stopping)) s")
    #expect(!loaded.output.contains("overrun"), "\(loaded.output)")
    #expect(!quiet.output.contains("overrun"), "\(quiet.output)")

    let (answered, failed, latencies) = results.withLock { ($0.answered, $0.failed, $0.latencies) }
    #expect(failed.isEmpty, "\(failed.prefix(10))")
    #expect(answered > 100, "the flood was answered: \(answered) requests")
    let sorted = latencies.sorted()
    let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    print(
      String(
        format: "HTTP load: %d requests answered during the run, p99 %.1f ms, with %d connections held",
        answered, p99 * 1000, Self.heldConnections))
    #expect(try Self.plays(loadedDB) == quietPlays)
  }

  /// The plays of a play log as (channel, title, status), in channel order.
  static func plays(_ path: String) throws -> [String] {
    try PlayLogStore(path: path).plays().map { "\($0.channel) \($0.metadata.title) \($0.status.rawValue)" }.sorted()
  }
}
