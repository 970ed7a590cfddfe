import Foundation
import Matcher
import TestSupport
import Testing

/// The built `broadcast-monitor` executable, run as a user would.
enum CLI {
  /// Where `swift build` (debug) put the executable: next to the test bundle, or under the package's `.build`.
  /// `BROADCAST_MONITOR_BIN` overrides both.
  static let executable: URL? = {
    let environment = ProcessInfo.processInfo.environment
    var candidates: [URL] = []
    if let path = environment["BROADCAST_MONITOR_BIN"] { candidates.append(URL(fileURLWithPath: path)) }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("broadcast-monitor"))
    if let executable = Bundle.main.executableURL {
      candidates.append(executable.deletingLastPathComponent().appendingPathComponent("broadcast-monitor"))
    }
    candidates.append(Fixtures.packageRoot.appendingPathComponent(".build/debug/broadcast-monitor"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  static let isBuilt = executable != nil
  static let notBuilt: Comment = "broadcast-monitor is not built: run `swift build` (scripts/test.sh does) first"

  /// Runs `broadcast-monitor` with `arguments`.
  static func run(_ arguments: [String], in folder: URL? = nil) throws -> Subprocess.Result {
    let executable = try #require(executable, notBuilt)
    return try Subprocess.run(executable.path, arguments, in: folder)
  }

  /// The three catalog fixtures with `tracks.csv`, added to a new catalog at `url` with `catalog add`.
  @discardableResult
  static func makeCatalog(at url: URL) throws -> Subprocess.Result {
    let result = try run(
      ["catalog", "add", "--catalog", url.path, "--metadata", Fixtures.music("tracks.csv").path]
        + ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"].map { Fixtures.music($0).path })
    try #require(result.status == 0, "catalog add failed: \(result)")
    return result
  }

  /// Puts a new copy of the catalog at `url` in place, as `rsync` or `catalog add` does: written beside it and renamed
  /// over it, so that a monitor's reload finds another file.
  static func renewCatalog(at url: URL) throws {
    let copy = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new")
    try FileManager.default.copyItem(at: url, to: copy)
    try #require(rename(copy.path, url.path) == 0, "cannot rename \(copy.path) over \(url.path)")
  }

  /// A fixture decoded to mono at 8 kHz.
  static func decode(_ name: String) throws -> [Float] {
    var samples: [Float] = []
    try AudioFileDecoder(ffmpegSampleRate: 8000).decode(path: Fixtures.music(name).path) { buffer, _, _ in
      samples += buffer
    }
    return samples
  }

  /// Writes `seconds` of a fixture from `start` to a float WAV at 8 kHz.
  static func writeClip(of name: String, from start: Double, seconds: Double, to url: URL) throws {
    let samples = try decode(name)
    try WAVWriter.write(Array(samples[Int(start * 8000)..<Int((start + seconds) * 8000)]), sampleRate: 8000, to: url)
  }

  /// The lines a command printed, without the trailing empty one.
  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
  }
}
