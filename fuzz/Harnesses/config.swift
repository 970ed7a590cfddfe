import Common
import Foundation

@testable import MonitorKit

// Fuzzes the configuration reader (MonitorConfiguration+File, +Validation): a monitor.json5 is decoded (JSON5) and
// checked, as `run --config` does before it starts anything. The file system it checks paths against is made up: a
// path whose last part has a dot is a readable, writable file, any other path a writable folder, so that every
// file checks the values behind the paths too. A file must either load or be refused with a
// `ConfigurationError` naming the file; a crash, a hang or an allocation without bound is a finding.

/// Paths with an extension are files, the rest folders; everything may be read and written.
let madeUpFiles = FileChecks(
  entry: { path in (path as NSString).lastPathComponent.contains(".") ? .file : .directory },
  isReadable: { _ in true }, isWritable: { _ in true })

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  writeSeedsIfAsked {
    let minimal = """
      {catalogPath: "catalog.bmcat", databasePath: "plays.sqlite", channels: [{name: "fm1", source: "jack"}]}
      """
    let sources = """
      {
        catalogPath: "/var/lib/bm/catalog.bmcat", databasePath: "plays.sqlite", workerThreads: 2,
        jack: {clientName: "bm", serverName: "default", ringSeconds: 4},
        matcher: {minVotes: 5, maxGapSeconds: 12.5},
        channels: [
          {name: "a", source: "jack-mono:system:capture_1", timeZone: "Europe/Paris"},
          {name: "b", source: {jack: {ports: "mono", connectPattern: "capture_[12]"}}},
          {name: "c", source: {stream: {url: "https://example.com/live.mp3"}}, matcher: {minMatches: 8}},
          {name: "d", source: {file: {path: "air.wav", loop: true}}},
          {name: "e", source: "jack~system:capture_[34]"},
        ],
      }
      """
    return [
      ("example.json5", try Data(contentsOf: URL(fileURLWithPath: "config/monitor.example.json5"))),
      ("minimal.json5", Data(minimal.utf8)),
      ("sources.json5", Data(sources.utf8)),
    ]
  }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  _ = FuzzScratch.write(UnsafeBufferPointer(start: data, count: size), name: "monitor.json5")
  do {
    let configuration = try MonitorConfiguration.load(
      file: "monitor.json5", currentDirectory: FuzzScratch.folder, checks: madeUpFiles)
    for channel in configuration.channels { _ = configuration.matcherSettings(for: channel) }
  } catch {
    fuzzExpect(
      error.keyPath.hasPrefix("monitor.json5") && !error.reason.isEmpty, "a refusal that names no file: \(error)")
  }
  return 0
}
