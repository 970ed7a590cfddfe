import Foundation

/// What `--version` prints: the git commit the program was built from.
///
/// SwiftPM runs no script during a build, so the commit comes from one of two places:
/// - a source archive made by `git archive` (GitHub's tarballs too) has `archiveCommit` filled in by git, through
///   the `export-subst` attribute in `.gitattributes`: the commit is compiled in, and no `.git` is needed;
/// - a git checkout (a clone, CI) leaves it as written, and the commit is read when `--version` runs, with
///   `git describe`, from the checkout this file was compiled from (`#filePath`), marked `-dirty` when it has
///   uncommitted changes. The message says so, since that checkout may have moved on since the build.
enum BuildVersion {
  /// Filled in by `git archive`; as committed, the placeholder.
  static let archiveCommit = "$Format:%H$"

  /// The line `--version` prints.
  static var description: String {
    if !archiveCommit.hasPrefix("$") {
      return "\(CommandTable.program) commit \(archiveCommit) (source archive)"
    }
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    if let commit = describe(folder) {
      return "\(CommandTable.program) commit \(commit) (of the source checkout \(folder), read now)"
    }
    return "\(CommandTable.program), commit unknown (built outside a git checkout and not from `git archive`)"
  }

  /// `git describe --always --dirty` in `folder`, or nil without git or a checkout there.
  static func describe(_ folder: String) -> String? {
    guard FileManager.default.fileExists(atPath: folder) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder, "describe", "--always", "--dirty", "--abbrev=12"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }
}
