import Foundation
import Matcher
import TestSupport

@testable import MonitorKit

/// A fresh folder with what a configuration names: `catalog.bmcat` (a readable file: loading only checks that it
/// can be read) and room for `plays.sqlite`. Configuration files written here are loaded with this folder as the
/// current folder, so errors name them as `monitor.json5: …`.
struct ConfigurationFolder {
  let directory: TemporaryDirectory
  var path: String { directory.url.path }

  /// The smallest valid configuration file: one JACK channel.
  static let minimal = """
    {catalogPath: "catalog.bmcat", databasePath: "plays.sqlite", channels: [{name: "fm", source: "jack"}]}
    """

  init() throws {
    directory = try TemporaryDirectory(prefix: "monitor-configuration")
    try Data("BMCATLG".utf8).write(to: directory.file("catalog.bmcat"))
  }

  /// The absolute path of `name` in the folder.
  func file(_ name: String) -> String { directory.file(name).path }

  /// Writes `text` to `name` in the folder (making its folders).
  func write(_ text: String, to name: String = "monitor.json5") throws {
    let url = directory.file(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// Writes `text` as `monitor.json5` and loads it.
  func load(_ text: String, checks: FileChecks = .live) throws -> MonitorConfiguration {
    try write(text)
    return try MonitorConfiguration.load(file: "monitor.json5", currentDirectory: path, checks: checks)
  }

  /// Loads `run` with `arguments`, in this folder.
  func run(_ arguments: [String], checks: FileChecks = .live) throws -> MonitorConfiguration {
    let parsed = try CommandLineArguments(
      arguments[...], valueOptions: MonitorConfiguration.runValueOptions,
      flagOptions: MonitorConfiguration.runFlagOptions)
    return try MonitorConfiguration.load(arguments: parsed, currentDirectory: path, checks: checks)
  }
}

extension FileChecks {
  /// The real file system seen from `root`: `/var/lib/x` is `root/var/lib/x`. For files that name paths of another
  /// machine.
  static func rooted(at root: String) -> FileChecks {
    let live = FileChecks.live
    return FileChecks(
      entry: { live.entry(root + $0) }, isReadable: { live.isReadable(root + $0) },
      isWritable: { live.isWritable(root + $0) }, isOnReadOnlyFileSystem: { live.isOnReadOnlyFileSystem(root + $0) })
  }

  /// The real file system, except that `paths` cannot be read or written.
  static func denying(_ paths: Set<String>) -> FileChecks {
    let live = FileChecks.live
    return FileChecks(
      entry: live.entry, isReadable: { !paths.contains($0) && live.isReadable($0) },
      isWritable: { !paths.contains($0) && live.isWritable($0) })
  }
}
