import Foundation
import Matcher
import TestSupport
import Testing

@Suite(
  "broadcast-monitor match and signature", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct MatchCommandTests {
  let folder: TemporaryDirectory
  var catalogURL: URL { folder.file("music.bmcat") }

  init() throws {
    folder = try TemporaryDirectory(prefix: "cli-match")
  }

  @Test("match on a clip of a exits 0 and prints its artist, title and ISRC")
  func matchesClip() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clip = folder.file("a-clip.wav")
    try CLI.writeClip(of: "catalog-a.ogg", from: 6, seconds: 8, to: clip)
    let result = try CLI.run(["match", "--catalog", catalogURL.path, clip.path])
    #expect(result.status == 0, "\(result)")
    let lines = CLI.lines(result.stdout)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("Muldjord – Armygeddon [ZZBMF2600001]") == true, "\(result)")
    #expect(
      lines.first?.contains("reference offset 6.") == true || lines.first?.contains("reference offset 5.") == true)
  }

  @Test("match on music that is not in the catalog exits 1 with \"no match\"")
  func noMatch() throws {
    try CLI.makeCatalog(at: catalogURL)
    let result = try CLI.run(["match", "--catalog", catalogURL.path, Fixtures.music("unknown.ogg").path])
    #expect(result.status == 1, "\(result)")
    #expect(CLI.lines(result.stdout) == ["no match"])
  }

  @Test("match on a file that is not audio exits 1 naming the file")
  func notAudio() throws {
    try CLI.makeCatalog(at: catalogURL)
    let path = Fixtures.music("not-audio.ogg").path
    let result = try CLI.run(["match", "--catalog", catalogURL.path, path])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains(path))
  }

  @Test("match and scan refuse a FIFO at once (exit 64), instead of waiting for a writer forever")
  func fifoRefused() throws {
    try CLI.makeCatalog(at: catalogURL)
    let fifo = folder.file("clip.wav")
    try #require(mkfifo(fifo.path, 0o600) == 0, "mkfifo failed")
    for arguments in [
      ["match", "--catalog", catalogURL.path, fifo.path],
      ["scan", "--catalog", catalogURL.path, "--channel", "fm", fifo.path],
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result)")
      #expect(result.stderr.contains("\(fifo.path) is not a regular file (a device, a pipe"), "\(result.stderr)")
    }
  }

  @Test("match and scan on a folder say it is a folder (exit 64)")
  func folderRefused() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clips = folder.file("clips")
    try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
    for arguments in [
      ["match", "--catalog", catalogURL.path, clips.path],
      ["scan", "--catalog", catalogURL.path, "--channel", "fm", clips.path],
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result)")
      #expect(result.stderr.contains("\(clips.path) is a folder: give an audio file\n"), "\(result.stderr)")
    }
  }

  @Test("match on a .bmsig written by signature finds the same item as on the clip")
  func matchesSignatureFile() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clip = folder.file("b-clip.wav")
    try CLI.writeClip(of: "catalog-b.ogg", from: 10, seconds: 8, to: clip)
    let out = folder.file("b-clip.bmsig")
    let written = try CLI.run(["signature", clip.path, "--out", out.path])
    #expect(written.status == 0, "\(written)")
    let fromClip = try CLI.run(["match", "--catalog", catalogURL.path, clip.path])
    let fromSignature = try CLI.run(["match", "--catalog", catalogURL.path, out.path])
    #expect(fromSignature.status == 0, "\(fromSignature)")
    #expect(CLI.lines(fromSignature.stdout).first?.hasPrefix("Muldjord – Chaos God [ZZBMF2600002]") == true)
    #expect(fromSignature.stdout == fromClip.stdout, "\(fromClip.stdout) vs \(fromSignature.stdout)")
  }

  @Test("match --all prints every match in a clip of two items, the best first")
  func matchAll() throws {
    try CLI.makeCatalog(at: catalogURL)
    let a = try CLI.decode("catalog-a.ogg")
    let c = try CLI.decode("catalog-c.ogg")
    let clip = folder.file("a-then-c.wav")
    try WAVWriter.write(Array(a[8000 * 5..<8000 * 17] + c[8000 * 5..<8000 * 15]), sampleRate: 8000, to: clip)
    let best = try CLI.run(["match", "--catalog", catalogURL.path, clip.path])
    let all = try CLI.run(["match", "--catalog", catalogURL.path, "--all", clip.path])
    #expect(all.status == 0, "\(all)")
    let lines = CLI.lines(all.stdout)
    #expect(lines.count == 2, "\(all.stdout)")
    #expect(lines.first == CLI.lines(best.stdout).first)
    #expect(lines.contains { $0.contains("Armygeddon") } && lines.contains { $0.contains("[ZZBMF2600003]") })
  }

  @Test("signature writes a query signature file that loads back with the clip's duration")
  func signature() throws {
    let clip = folder.file("b-clip.wav")
    try CLI.writeClip(of: "catalog-b.ogg", from: 3, seconds: 5, to: clip)
    let out = folder.file("b-clip.bmsig")
    let result = try CLI.run(["signature", clip.path, "--out", out.path])
    #expect(result.status == 0, "\(result)")
    let signature = try Signature(contentsOf: out)
    #expect(abs(signature.durationSeconds - 5) < 0.01)
    #expect(!signature.peaks.isEmpty)
    #expect(result.stdout.contains("\(signature.peaks.count) peaks"))
  }

  @Test("signature of a silent clip writes nothing and exits 65, saying the clip has no fingerprint")
  func silentSignature() throws {
    let clip = folder.file("silence.wav")
    try WAVWriter.write(Signals.silence(seconds: 5), sampleRate: 8000, to: clip)
    let out = folder.file("silence.bmsig")
    let result = try CLI.run(["signature", clip.path, "--out", out.path])
    #expect(result.status == 65, "\(result)")
    #expect(result.stderr.contains("has no fingerprint (no peaks in 5.0 s of audio)"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  @Test("signature refuses a FIFO clip, and an --out that is the clip or another kind of file, before any work")
  func signatureRefusals() throws {
    let clip = folder.file("c-clip.wav")
    try CLI.writeClip(of: "catalog-b.ogg", from: 3, seconds: 2, to: clip)
    try CLI.makeCatalog(at: catalogURL)
    let clipBytes = try Data(contentsOf: clip)
    let catalogBytes = try Data(contentsOf: catalogURL)
    let fifo = folder.file("live.ogg").path
    #expect(mkfifo(fifo, 0o600) == 0)
    for (arguments, message) in [
      ([fifo, "--out", folder.file("x.bmsig").path], "is not a regular file"),
      ([clip.path, "--out", clip.path], "is the clip this command reads"),
      ([clip.path, "--out", catalogURL.path], "exists and is not a signature file"),
    ] {
      let result = try CLI.run(["signature"] + arguments)
      #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result)")
    }
    #expect(try Data(contentsOf: clip) == clipBytes && Data(contentsOf: catalogURL) == catalogBytes)
  }
}

@Suite("broadcast-monitor --settings", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct SettingsOptionTests {
  @Test("match and scan refuse a settings file with an unknown key, exit 78 (EX_CONFIG), naming the key and the file")
  func unknownKey() throws {
    let folder = try TemporaryDirectory(prefix: "cli-settings")
    let settings = folder.file("settings.json5")
    try Data("{ maxGapSecs: 30 }".utf8).write(to: settings)
    let catalog = folder.file("empty.bmcat")
    try CatalogBuilder().build().write(to: catalog)
    let clip = folder.file("clip.wav")
    try WAVWriter.write(Signals.silence(seconds: 0.5), sampleRate: 8000, to: clip)
    for command in [["match"], ["scan", "--channel", "x"]] {
      let result = try CLI.run(command + ["--catalog", catalog.path, "--settings", settings.path, clip.path])
      #expect(result.status == 78, "\(command): \(result)")
      #expect(result.stderr.contains("maxGapSecs"))
      #expect(result.stderr.contains(settings.path))
    }
  }
}
