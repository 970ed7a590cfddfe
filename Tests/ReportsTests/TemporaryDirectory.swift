import Foundation

/// A fresh folder under the system's temporary folder, removed when the body returns.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("ReportsTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url)
}
