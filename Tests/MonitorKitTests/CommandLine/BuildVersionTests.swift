import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("Build version", .enabled(if: Subprocess.isInstalled("git"), "needs git"))
struct BuildVersionTests {
  static func git(_ arguments: [String]) throws -> Subprocess.Result {
    try Subprocess.run("git", ["-C", Fixtures.packageRoot.path] + arguments)
  }

  @Test("In a git checkout, --version names the checkout's commit")
  func checkout() throws {
    let head = try Self.git(["rev-parse", "HEAD"])
    try #require(head.status == 0, "not a git checkout: \(head)")
    #expect(BuildVersion.archiveCommit.hasPrefix("$"), "the committed file keeps git archive's placeholder")
    let described = try Self.git(["describe", "--always", "--dirty", "--abbrev=12"])
    let name = described.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(BuildVersion.description.hasPrefix("broadcast-monitor commit \(name) "), "\(BuildVersion.description)")
  }

  @Test("git archive writes the commit into BuildVersion.swift, so a tarball without .git knows it")
  func archive() throws {
    let head = try Self.git(["rev-parse", "HEAD"])
    try #require(head.status == 0, "not a git checkout: \(head)")
    let folder = try TemporaryDirectory(prefix: "archive")
    let tar = folder.file("source.tar")
    let archived = try Self.git(
      ["archive", "--output", tar.path, "HEAD", "Sources/MonitorKit/CommandLine/BuildVersion.swift"])
    #expect(archived.status == 0, "\(archived)")
    let extracted = try Subprocess.run("tar", ["-xOf", tar.path])
    let commit = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(extracted.stdout.contains("static let archiveCommit = \"\(commit)\""), "\(extracted.stdout)")
  }
}
