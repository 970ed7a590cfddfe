import Foundation

/// Golden files: text a test compares with a file kept in the repository, so that a change that alters it has to
/// update the file on purpose, in the same commit. `UPDATE_GOLDEN=1 swift test --filter …` rewrites the files
/// instead of comparing (review the diff before committing it).
public enum Golden {
  /// Where golden files live: `Tests/Fixtures/golden`.
  public static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/golden")

  /// Whether this run rewrites golden files (`UPDATE_GOLDEN=1`).
  public static var isUpdating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

  /// Compares `text` with the golden file at `relativePath` under `folder`: nil when they are equal (or when the file
  /// was rewritten), else what differs.
  public static func mismatch(_ text: String, file relativePath: String) throws -> String? {
    try mismatch(text, at: folder.appendingPathComponent(relativePath))
  }

  /// Compares `text` with the file at `url` (any file kept current by a test, such as a generated man page).
  public static func mismatch(_ text: String, at url: URL) throws -> String? {
    if isUpdating {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
      return nil
    }
    guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
      return "\(url.path) is missing; run the test with UPDATE_GOLDEN=1 to write it"
    }
    if stored == text { return nil }
    let old = stored.components(separatedBy: "\n")
    let new = text.components(separatedBy: "\n")
    let line = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
    return "\(url.path) differs at line \(line + 1):\n  stored:    \(line < old.count ? old[line] : "(end)")\n"
      + "  generated: \(line < new.count ? new[line] : "(end)")\n"
      + "if the change is meant, run the test with UPDATE_GOLDEN=1 and commit the file"
  }
}
