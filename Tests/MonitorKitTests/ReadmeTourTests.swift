import Foundation
import TestSupport
import Testing

/// The README's five-minute tour, run as a newcomer would: its shell blocks one after the other, from the checkout.
@Suite(
  "The README's five-minute tour", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg") && Subprocess.isInstalled("sqlite3"), "needs ffmpeg and sqlite3"))
struct ReadmeTourTests {
  /// The tour: from its heading to the live part (which needs JACK and runs until stopped).
  static func tour() throws -> Substring {
    let readme = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "## Five-minute tour"))
    let end = try #require(readme.range(of: "**Monitor live.**", range: start.upperBound..<readme.endIndex))
    return readme[start.upperBound..<end.lowerBound]
  }

  /// The fenced blocks of `language` in `text`.
  static func blocks(_ language: String, in text: Substring) -> [String] {
    text.components(separatedBy: "```\(language)\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
  }

  @Test("Its commands work in order in a fresh shell, print the output it shows, and write nothing into the checkout")
  func tourRuns() throws {
    let tour = try Self.tour()
    let executable = try #require(CLI.executable)
    // The binary under test stands in for the release build the tour names.
    let script = Self.blocks("sh", in: tour).joined()
      .replacingOccurrences(of: "$PWD/.build/release", with: executable.deletingLastPathComponent().path)
    #expect(script.contains("cd \"$(mktemp -d)\""))
    let status = { () throws -> String in
      try Subprocess.run("git", ["-C", Fixtures.packageRoot.path, "status", "--porcelain", "--untracked-files=all"])
        .stdout
    }
    let before = try status()
    let result = try Subprocess.run("bash", ["-c", script], in: Fixtures.packageRoot)
    #expect(result.status == 0, "\(result)")
    for line in Self.blocks("text", in: tour).joined().split(separator: "\n") where line.hasPrefix("Muldjord") {
      #expect(result.stdout.contains(line), "the README shows \(line)\nthe tour printed:\n\(result.stdout)")
    }
    #expect(result.stdout.contains("no match"))
    #expect(result.stdout.contains("demo,2026-01-01T00:00:00.000Z"), "\(result.stdout)")
    #expect(try status() == before, "the tour wrote into the checkout")
  }
}
