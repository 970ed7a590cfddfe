import Foundation
import Testing

/// Where a test's database lives: tests that must hold for both run once for each.
enum StorageLocation: String, CaseIterable, CustomTestStringConvertible {
  case memory
  case file

  var testDescription: String { rawValue == "memory" ? "in memory" : "in a file" }

  /// Runs `body` with a database path of this kind (":memory:", or a file in a fresh temporary folder).
  func withPath<Result>(_ body: (String) throws -> Result) throws -> Result {
    switch self {
    case .memory: try body(":memory:")
    case .file: try withTemporaryDirectory { try body($0.appendingPathComponent("plays.sqlite").path) }
    }
  }
}
