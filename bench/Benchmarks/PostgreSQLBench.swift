import Foundation
import Reports

// `Benchmarks postgresql URL [--nodes N] [--channels N] [--plays N]`: plays recorded per second into a PostgreSQL
// play log, per node and in total, with N nodes writing at once (bench/postgresql.sh starts a private server).
//
// Each node is a thread with its own connection and lease (`PostgreSQLPlayLogStore`, node `bench-K`) and its own
// channels (`nodeK-chNN`), claimed as `run` claims them. A play costs what it costs the monitor's writer: its
// start (one transaction: channel, catalog item, play) and its closing update (one transaction), each committed
// before the next, as the writer does; in between the monitor sends progress updates, counted apart
// (`--updates N` per play, default 2; the monitor's 5-second progress interval makes 42 for a 3.5-minute song).
// The last line compares the rate with the air of as many channels (15 plays per channel-hour): the headroom.

/// One node's figures.
private struct NodeResult: Sendable {
  var plays = 0
  var seconds = 0.0
  var latenciesMilliseconds: [Double] = []
  var failure: String?
}

private final class NodeResults: @unchecked Sendable {
  let lock = NSLock()
  var results: [NodeResult] = []
}

func benchPostgreSQL(_ arguments: [String]) throws {
  guard let url = arguments.first else { throw BenchUsage("postgresql URL [--nodes N] [--channels N] [--plays N]") }
  func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return fallback }
    return Int(arguments[index + 1]) ?? fallback
  }
  let nodes = option("nodes", 3)
  let channels = option("channels", 16)
  let plays = option("plays", 2000)
  let updates = option("updates", 2)
  let results = NodeResults()
  let group = DispatchGroup()
  let started = Date()
  for node in 0..<nodes {
    group.enter()
    let thread = Thread {
      defer { group.leave() }
      var result = NodeResult()
      do {
        let store = try PostgreSQLPlayLogStore(url: url, node: "bench-\(node)")
        let names = (0..<channels).map { String(format: "node%d-ch%02d", node, $0 + 1) }
        try store.claim(channels: names)
        // Each run writes after the plays already there: its own year, so reruns never collide.
        let base = Int64(Date().timeIntervalSince1970 * 1000) * 10 + Int64(node) * 1_000_000_000
        let begin = Date()
        for index in 0..<plays {
          let start = Date(timeIntervalSince1970: Double(base + Int64(index) * 210_000) / 1000)
          let play = PlayRecord(
            channel: names[index % channels], itemKey: "song-\(index % 4000)", title: "Song \(index % 4000)",
            artist: "Artist \(index % 900)", isrc: String(format: "ZZBM%08d", index % 4000), kind: .song,
            attributes: ["mapl": index % 3 == 0 ? "MAPL" : ""], itemDurationSeconds: 210, start: start,
            end: start.addingTimeInterval(8), confidence: 0.9, detectedAt: start.addingTimeInterval(6), status: .open)
          let writeStart = Date()
          let id = try store.record(play)
          for update in 0..<updates {
            try store.update(
              playID: id, start: nil, end: start.addingTimeInterval(Double(60 * (update + 1))), refOffsetSeconds: 0,
              speed: 1, confidence: 0.9, status: .open)
          }
          try store.update(
            playID: id, start: nil, end: start.addingTimeInterval(210), refOffsetSeconds: 0, speed: 1,
            confidence: 0.95, status: .closed)
          result.latenciesMilliseconds.append(Date().timeIntervalSince(writeStart) * 1000)
          result.plays += 1
        }
        result.seconds = Date().timeIntervalSince(begin)
        try store.close()
      } catch {
        result.failure = "\(error)"
      }
      results.lock.withLock { results.results.append(result) }
    }
    thread.start()
  }
  group.wait()
  let wall = Date().timeIntervalSince(started)
  let all = results.lock.withLock { results.results }
  if let failure = all.compactMap(\.failure).first { throw BenchUsage("a node failed: \(failure)") }
  let total = all.reduce(0) { $0 + $1.plays }
  for (index, result) in all.enumerated() {
    let sorted = result.latenciesMilliseconds.sorted()
    print(
      String(
        format: "postgresql: node %d: %d plays in %.1f s: %.0f plays/s (%d transactions each), per play median "
          + "%.2f ms, p99 %.2f ms", index, result.plays, result.seconds, Double(result.plays) / result.seconds,
        updates + 2, sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]))
  }
  print(
    String(
      format: "postgresql: %d nodes × %d channels: %d plays in %.1f s: %.0f plays/s in total", nodes, channels, total,
      wall, Double(total) / wall))
  // The air these channels make: about 15 plays per channel-hour (a music station's songs, ads and jingles).
  let airPlaysPerSecond = Double(nodes * channels) * playsPerChannelHour / 3600
  print(
    String(
      format: "postgresql: %d channels on air make %.2f plays/s (%.0f plays per channel-hour, %d transactions "
        + "each): headroom %.0f×", nodes * channels, airPlaysPerSecond, playsPerChannelHour, updates + 2,
      Double(total) / wall / airPlaysPerSecond))
}

/// Plays per channel-hour on a music station (songs, ads, jingles), for the headroom figure.
private let playsPerChannelHour = 15.0

/// A benchmark's usage error.
struct BenchUsage: Error, CustomStringConvertible {
  let description: String
  init(_ text: String) { description = text }
}
