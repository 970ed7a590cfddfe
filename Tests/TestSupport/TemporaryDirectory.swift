import Foundation

/// A fresh folder under the system's temporary folder, removed with everything in it when the value is released.
public final class TemporaryDirectory: Sendable {
  public let url: URL

  public init(prefix: String = "broadcast-monitor-tests") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// A path inside the folder (nothing is created).
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Runs `body` with a fresh temporary folder, removed when it returns.
public func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
  let directory = try TemporaryDirectory()
  return try withExtendedLifetime(directory) { try body(directory.url) }
}
