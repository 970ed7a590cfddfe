import Foundation
import Matcher
import Reports
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
}
