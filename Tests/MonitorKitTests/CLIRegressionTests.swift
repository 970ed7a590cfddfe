import Foundation
import Matcher
import TestSupport
import Testing

/// Regression tests for bugs found while writing the suites: each names the bug it guards against.
@Suite(
  "Regressions (CLI)", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct RegressionCLITests {
  let folder: TemporaryDirectory
  var catalogURL: URL { folder.file("music.bmcat") }

  init() throws { folder = try TemporaryDirectory(prefix: "cli-bugs") }

  func listedTitles() throws -> [String] {
    let result = try CLI.run(["catalog", "list", "--catalog", catalogURL.path])
    #expect(result.status == 0, "\(result)")
    return CLI.lines(result.stdout).dropFirst().map { String($0.split(separator: "\t").last ?? "") }
  }

  @Test(
    "Re-adding the same files is idempotent: exit 0, already present 3, the same tracks and hashes")
  func reAddIsIdempotent() throws {
    try CLI.makeCatalog(at: catalogURL)
    let hashes = try Catalog.load(from: catalogURL).info().hashCount
    let result = try CLI.run(
      [
        "catalog", "add", "--catalog", catalogURL.path, "--metadata",
        Fixtures.music("tracks.csv").path,
      ]
        + ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"].map { Fixtures.music($0).path })
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("added 0, already present 3, failed 0; now 3 tracks"))
    #expect(try listedTitles() == ["Armygeddon", "Chaos God", "Internal Degeneration"])
    #expect(try Catalog.load(from: catalogURL).info().hashCount == hashes)
  }

  @Test("catalog remove by ISRC removes that track and keeps the others")
  func removeByISRC() throws {
    try CLI.makeCatalog(at: catalogURL)
    let result = try CLI.run(["catalog", "remove", "--catalog", catalogURL.path, "zzbmf2600002"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("removed"))
    #expect(result.stdout.contains("Chaos God"))
    #expect(try listedTitles() == ["Armygeddon", "Internal Degeneration"])
  }

  @Test(
    "catalog remove of several names at once (a key, an ISRC in lower case, a path) removes each track once, and names the unknown one"
  )
  func removeSeveral() throws {
    try CLI.makeCatalog(at: catalogURL)
    let key = try ReferenceFingerprinter.key(ofFileAt: Fixtures.music("catalog-a.ogg").path)
    let path = Fixtures.music("catalog-c.ogg").path
    let result = try CLI.run(
      ["catalog", "remove", "--catalog", catalogURL.path, key, "zzbmf2600002", path, key, "ZZXXX9999999"])
    #expect(result.status == 1, "\(result)")
    let removed = CLI.lines(result.stdout).filter { $0.hasPrefix("removed ") }
    #expect(removed.count == 3, "\(result.stdout)")
    #expect(removed.first?.hasPrefix("removed \(key) ") == true, "\(result.stdout)")
    #expect(result.stderr.contains("not in the catalog: ZZXXX9999999"))
    #expect(try listedTitles().isEmpty)
  }

  @Test(
    "catalog remove of something not in the catalog exits 1 naming it, and the catalog is not rewritten"
  )
  func removeUnknown() throws {
    try CLI.makeCatalog(at: catalogURL)
    var before = stat()
    #expect(stat(catalogURL.path, &before) == 0)
    let result = try CLI.run(["catalog", "remove", "--catalog", catalogURL.path, "ZZXXX9999999"])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("not in the catalog: ZZXXX9999999"))
    #expect(result.stderr.contains("unchanged, nothing removed"), "\(result.stderr)")
    var after = stat()
    #expect(stat(catalogURL.path, &after) == 0)
    #expect(after.st_ino == before.st_ino, "the same file, not a copy renamed over it")
    #expect(try listedTitles() == ["Armygeddon", "Chaos God", "Internal Degeneration"])
  }

  @Test("Adding a track to an existing catalog keeps the tracks it had")
  func addToExisting() throws {
    let first = try CLI.run([
      "catalog", "add", "--catalog", catalogURL.path, Fixtures.music("catalog-a.ogg").path,
    ])
    #expect(first.status == 0, "\(first)")
    let second = try CLI.run([
      "catalog", "add", "--catalog", catalogURL.path, Fixtures.music("catalog-b.ogg").path,
    ])
    #expect(second.status == 0, "\(second)")
    #expect(try listedTitles() == ["Armygeddon", "Chaos God"])
  }

  @Test(
    "signature without --out is a usage error before any decoding, even for a clip that does not exist"
  )
  func signatureWithoutOut() throws {
    let result = try CLI.run(["signature", folder.file("missing.wav").path])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("--out"))
  }
}
