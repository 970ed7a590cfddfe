import Foundation
import Matcher
import Reports
import Synchronization
import TestSupport
import Testing

@testable import MonitorKit

@Suite(
  "WorkerPool", .enabled(if: CLI.isBuilt, CLI.notBuilt), .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct WorkerPoolTests {
  @Test("a worker drains each of its channels, and stop ends their running plays", arguments: [1, 2])
  func drainsChannels(threads: Int) throws {
    let folder = try TemporaryDirectory(prefix: "workers")
    try CLI.makeCatalog(at: folder.file("music.bmcat"))
    let catalog = try Catalog.load(from: folder.file("music.bmcat"))
    let unknown = try CLI.decode("unknown.ogg")
    let a = try CLI.decode("catalog-a.ogg")
    let c = try CLI.decode("catalog-c.ogg")
    let dbPath = folder.file("plays.sqlite").path
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: dbPath), log: log)
    let inputs = [
      ScriptedInput(segments: [.init(samples: unknown + a, startTime: 1_000_000)]),
      ScriptedInput(segments: [.init(samples: c + unknown, startTime: 2_000_000)]),
      ScriptedInput(segments: [.init(samples: unknown + Array(c.prefix(20 * 8000)), startTime: 3_000_000)]),
    ]
    let pipelines = inputs.enumerated().map { i, input in
      ChannelPipeline(
        name: "ch\(i + 1)", input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    }
    let pool = WorkerPool(threads: threads, pipelines: pipelines)
    #expect(pool.threadCount == threads)
    let deadline = Date().addingTimeInterval(60)
    while inputs.contains(where: { $0.status != .ended }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    pool.stop()
    #expect(pool.cpuSeconds > 0)
    #expect(writer.stop().isEmpty)
    let plays = try PlayLogStore(path: dbPath).plays()
    #expect(plays.map(\.channel) == ["ch1", "ch2", "ch3"])
    #expect(
      plays.map(\.metadata.title) == ["Armygeddon", "Internal Degeneration", "Internal Degeneration"],
      "\(plays.map(\.metadata.title))")
    #expect(plays.allSatisfy { $0.status == .closed })
  }

  @Test(
    "the watch thread hands on the heartbeats of the channels listening, through their last audio, first as it starts",
    arguments: [0.05, 3600])
  func heartbeats(heartbeatSeconds: Double) throws {
    let folder = try TemporaryDirectory(prefix: "workers-heartbeat")
    try CLI.makeCatalog(at: folder.file("music.bmcat"))
    let catalog = try Catalog.load(from: folder.file("music.bmcat"))
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: folder.file("plays.sqlite").path), log: log)
    defer { _ = writer.stop() }
    let silence = [Float](repeating: 0, count: 8000)
    let made = Date()
    let pipelines = [
      ("heard", ScriptedInput(segments: [.init(samples: silence, startTime: 1_000_000)], runsOnAfterEnd: true)),
      ("quiet", ScriptedInput(segments: [], runsOnAfterEnd: true)),
      ("ended", ScriptedInput(segments: [.init(samples: silence, startTime: 2_000_000)])),
    ].map { name, input in
      ChannelPipeline(name: name, input: input, catalog: catalog, settings: MatcherSettings(), writer: writer, log: log)
    }
    let received = Mutex<[[ChannelHeartbeat]]>([])
    let pool = WorkerPool(threads: 1, pipelines: pipelines, heartbeatSeconds: heartbeatSeconds) { heartbeats in
      received.withLock { $0.append(heartbeats) }
    }
    defer { pool.stop() }
    #expect(Wait.until(seconds: 30) { received.withLock { !$0.isEmpty } }, "the first comes as the pool starts")
    let first = received.withLock { $0[0] }
    #expect(first.prefix(2).map(\.channel) == ["heard", "quiet"], "in the pool's order: \(first)")
    guard heartbeatSeconds < 1 else { return }
    let heard = Date(timeIntervalSince1970: 1_000_001)
    #expect(
      Wait.until(seconds: 30) {
        received.withLock { last in
          last.last.map { $0.count == 2 && abs($0[0].heardThrough.timeIntervalSince(heard)) < 0.001 } ?? false
        }
      }, "\(received.withLock { $0.last ?? [] })")
    let later = received.withLock { $0.last ?? [] }
    #expect(later.map(\.channel) == ["heard", "quiet"], "a channel whose input ended is not listened to")
    let quiet = try #require(later.last?.heardThrough)
    #expect(quiet >= made && quiet <= Date(), "a channel not heard yet: through when its pipeline was made")
  }
}
