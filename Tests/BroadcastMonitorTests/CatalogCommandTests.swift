import Foundation
import Matcher
import TestSupport
import Testing

@Suite(
  "broadcast-monitor catalog", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct CatalogCommandTests {
  let folder: TemporaryDirectory
  var catalogURL: URL { folder.file("music.bmcat") }

  init() throws { folder = try TemporaryDirectory(prefix: "cli-catalog") }

  /// The data rows of `catalog list`, split on tabs.
  func listRows() throws -> [[String]] {
    let result = try CLI.run(["catalog", "list", "--catalog", catalogURL.path])
    #expect(result.status == 0, "\(result)")
    let lines = CLI.lines(result.stdout)
    #expect(lines.first == "key\tkind\tduration_s\tisrc\tartist\ttitle")
    return lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
  }

  @Test("catalog add --metadata tracks.csv, then catalog list shows the three titles with their ISRCs")
  func addAndList() throws {
    let added = try CLI.makeCatalog(at: catalogURL)
    #expect(added.stdout.contains("added 3, already present 0, failed 0; now 3 tracks"))
    let rows = try listRows()
    #expect(rows.map { $0[5] } == ["Armygeddon", "Chaos God", "Internal Degeneration"])
    #expect(rows.map { $0[3] } == ["ZZBMF2600001", "ZZBMF2600002", "ZZBMF2600003"])
    #expect(rows.allSatisfy { $0[1] == "song" && $0[2] == "30.0" && $0[4] == "Muldjord" })
    let keys = try ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"].map {
      try ReferenceFingerprinter.key(ofFileAt: Fixtures.music($0).path)
    }
    #expect(rows.map { $0[0] } == keys)
  }

  @Test("catalog add with only --metadata adds the files the sheet names, relative to the sheet")
  func addFromSheetOnly() throws {
    let result = try CLI.run([
      "catalog", "add", "--catalog", catalogURL.path, "--metadata", Fixtures.music("tracks.csv").path,
    ])
    #expect(result.status == 0, "\(result)")
    #expect(Set(try listRows().map { $0[5] }) == ["Armygeddon", "Chaos God", "Internal Degeneration"])
  }

  @Test("catalog info reports the tracks, hours, hashes and kinds of the catalog")
  func info() throws {
    try CLI.makeCatalog(at: catalogURL)
    let catalog = try Catalog.load(from: catalogURL)
    let result = try CLI.run(["catalog", "info", "--catalog", catalogURL.path])
    #expect(result.status == 0, "\(result)")
    let lines = CLI.lines(result.stdout)
    let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: catalogURL.path)[.size] as? Int)
    #expect(lines.contains("tracks:       3"))
    #expect(lines.contains(String(format: "hours:        %.2f", 90.0 / 3600)))
    #expect(lines.contains("hashes:       \(catalog.info().hashCount)"))
    #expect(lines.contains("file bytes:   \(fileBytes)"))
    #expect(lines.contains("kinds:        song 3"))
    #expect(lines.first == "catalog:      \(catalogURL.path)")
  }

  @Test("catalog add on a folder of good and bad files: exit 2, the good ones added, stderr names the bad ones")
  func folderWithBadFiles() throws {
    let music = folder.file("music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    for name in ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg", "corrupt.ogg", "not-audio.ogg", "tracks.csv"] {
      try FileManager.default.copyItem(at: Fixtures.music(name), to: music.appendingPathComponent(name))
    }
    let result = try CLI.run([
      "catalog", "add", "--catalog", catalogURL.path, "--metadata", music.appendingPathComponent("tracks.csv").path,
      music.path,
    ])
    #expect(result.status == 2, "\(result)")
    #expect(result.stdout.contains("added 3, already present 0, failed 2; now 3 tracks"))
    for bad in ["corrupt.ogg", "not-audio.ogg"] {
      let path = music.appendingPathComponent(bad).path
      #expect(CLI.lines(result.stderr).contains { $0.hasPrefix("skipped: \(path)") }, "\(result.stderr)")
    }
    let skipped = CLI.lines(result.stderr).filter { $0.hasPrefix("skipped:") }
    #expect(skipped.count == 2)
    for good in ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"] {
      #expect(!skipped.contains { $0.contains(music.appendingPathComponent(good).path) })
    }
    #expect(try listRows().map { $0[5] } == ["Armygeddon", "Chaos God", "Internal Degeneration"])
  }

  @Test("A damaged catalog makes every command exit 1 with a checksum message")
  func damagedCatalog() throws {
    try CLI.makeCatalog(at: catalogURL)
    var bytes = [UInt8](try Data(contentsOf: catalogURL))
    bytes[bytes.count / 2] ^= 0x10
    try Data(bytes).write(to: catalogURL)
    let clip = folder.file("clip.wav")
    try WAVWriter.write(Signals.silence(seconds: 1), sampleRate: 8000, to: clip)
    let commands: [[String]] = [
      ["catalog", "list", "--catalog", catalogURL.path],
      ["catalog", "info", "--catalog", catalogURL.path],
      ["catalog", "add", "--catalog", catalogURL.path, Fixtures.music("catalog-a.ogg").path],
      ["match", "--catalog", catalogURL.path, clip.path],
      ["scan", "--catalog", catalogURL.path, "--channel", "test", clip.path],
    ]
    for arguments in commands {
      let result = try CLI.run(arguments)
      #expect(result.status == 1, "\(arguments): \(result)")
      #expect(result.stderr.contains("checksum"), "\(arguments): \(result)")
      #expect(result.stderr.contains(catalogURL.path))
    }
  }

  @Test("catalog add with nothing to add is a usage error")
  func nothingToAdd() throws {
    let result = try CLI.run(["catalog", "add", "--catalog", catalogURL.path])
    #expect(result.status == 64)
    #expect(result.stderr.contains("nothing to add"))
    #expect(!FileManager.default.fileExists(atPath: catalogURL.path))
  }

  @Test("catalog add of a path that does not exist is a usage error naming it")
  func missingPath() throws {
    let missing = folder.file("nowhere.ogg").path
    let result = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, missing])
    #expect(result.status == 64)
    #expect(result.stderr.contains(missing))
  }
}
