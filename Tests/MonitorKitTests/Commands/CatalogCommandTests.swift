import Foundation
import Reports
import TestSupport
import Testing

@testable import Matcher

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

  @Test("an edit of a catalog that another edit holds is refused at once (75), naming it; the catalog is untouched")
  func oneEditAtATime() throws {
    try CLI.makeCatalog(at: catalogURL)
    let before = try Data(contentsOf: catalogURL)
    let other = try PlayLogLock(playLog: catalogURL.path, command: "catalog add")  // as a running add holds it
    let add = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, Fixtures.music("unknown.ogg").path])
    #expect(add.status == 75, "\(add)")
    #expect(add.stderr.contains("is being changed by `catalog add`, pid \(getpid())"), "\(add.stderr)")
    let remove = try CLI.run(["catalog", "remove", "--catalog", catalogURL.path, "anything"])
    #expect(remove.status == 75, "\(remove)")
    #expect(try Data(contentsOf: catalogURL) == before)
    other.release()
    let again = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, Fixtures.music("unknown.ogg").path])
    #expect(again.status == 0, "\(again)")
  }

  @Test("adding files the catalog has again, without their CSV rows, keeps the ISRCs and labels the CSV gave them")
  func readdKeepsSheetMetadata() throws {
    try CLI.makeCatalog(at: catalogURL)
    let before = try listRows()
    #expect(before.map { $0[3] } == ["ZZBMF2600001", "ZZBMF2600002", "ZZBMF2600003"])
    let again = try CLI.run(
      ["catalog", "add", "--catalog", catalogURL.path]
        + ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg", "unknown.ogg"].map { Fixtures.music($0).path })
    #expect(again.status == 0, "\(again)")
    #expect(again.stdout.contains("added 1, already present 3"), "\(again.stdout)")
    #expect(Array(try listRows().prefix(3)) == before)
  }

  @Test("an edited catalog keeps its permissions and group, so a service that read it still can")
  func editKeepsAccess() throws {
    try CLI.makeCatalog(at: catalogURL)
    #expect(chmod(catalogURL.path, 0o640) == 0)
    let isRoot = getuid() == 0
    if isRoot { #expect(chown(catalogURL.path, 0, 8765) == 0) }
    let add = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, Fixtures.music("unknown.ogg").path])
    #expect(add.status == 0, "\(add)")
    var info = stat()
    #expect(stat(catalogURL.path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o640)
    if isRoot { #expect(info.st_gid == 8765) }
  }

  @Test("catalog add into a folder that does not exist is refused (73) before any audio is decoded")
  func missingFolder() throws {
    let target = folder.file("nowhere/music.bmcat").path
    let result = try CLI.run(["catalog", "add", "--catalog", target, Fixtures.music("unknown.ogg").path])
    #expect(result.status == 73, "\(result)")
    #expect(result.stderr.contains("its folder \(folder.file("nowhere").path) does not exist"), "\(result.stderr)")
    #expect(!result.stdout.contains("added"), "\(result)")
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
    let sheet = folder.file("spot.csv")
    try Data("path,title,kind\n\(Fixtures.music("unknown.ogg").path),Spot,ad\n".utf8).write(to: sheet)
    let added = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, "--metadata", sheet.path])
    #expect(added.status == 0, "\(added)")
    let mixed = try CLI.run(["catalog", "info", "--catalog", catalogURL.path])
    #expect(CLI.lines(mixed.stdout).contains("kinds:        ad 1, song 3"), "\(mixed)")
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

  @Test("catalog add refuses a recording without a single peak (silence, or 16-bit samples labelled as floats)")
  func recordingWithoutPeaks() throws {
    let silent = folder.file("silent.wav")
    try WAVWriter.write(Signals.silence(seconds: 5), sampleRate: 8000, to: silent)
    let song = try CLI.decode("catalog-a.ogg").prefix(8000 * 15)
    var mislabelled = WAVWriter.pcm(
      song.map { Int32(($0 * 32767).rounded()) }, channels: 1, sampleRate: 8000, bitsPerSample: 16)
    mislabelled[20] = 3  // format tag: IEEE float
    mislabelled[34] = 32  // bits per sample: the 16-bit frames read in pairs as floats
    mislabelled[32] = 4  // block align
    let lying = folder.file("lying.wav")
    try mislabelled.write(to: lying)
    let result = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, silent.path, lying.path])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout.contains("added 0, already present 0, failed 2; not created, as nothing was added"),
      "\(result.stdout)")
    #expect(!FileManager.default.fileExists(atPath: catalogURL.path), "no empty catalog is left under the name")
    for path in [silent.path, lying.path] {
      #expect(
        CLI.lines(result.stderr).contains { $0.hasPrefix("skipped: \(path): no fingerprint") }, "\(result.stderr)")
    }
  }

  @Test(
    "catalog add skips a file whose recording the catalog holds already (an MP3 of a song added as Ogg), naming both; --allow-duplicates adds it with a warning"
  )
  func recordingAlreadyPresent() throws {
    try CLI.makeCatalog(at: catalogURL)
    let mp3 = try mp3OfArmygeddon()
    let original = Fixtures.music("catalog-a.ogg").path

    let skipped = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, mp3.path])
    #expect(skipped.status == 0, "\(skipped)")
    #expect(skipped.stdout.contains("added 0, already present 0, recordings already present 1, failed 0; now 3 tracks"))
    let line = try #require(CLI.lines(skipped.stderr).first { $0.hasPrefix("skipped: \(mp3.path): ") }, "\(skipped)")
    let originalKey = try ReferenceFingerprinter.key(ofFileAt: original)
    #expect(line.contains("\"Armygeddon\" by Muldjord (key \(originalKey), \(original))"), "\(line)")
    #expect(line.contains("--allow-duplicates"))
    #expect(try listRows().count == 3)

    let allowed = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, "--allow-duplicates", mp3.path])
    #expect(allowed.status == 0, "\(allowed)")
    #expect(allowed.stdout.contains("added 1, already present 0, failed 0; now 4 tracks"))
    #expect(CLI.lines(allowed.stderr).contains { $0.hasPrefix("warning: \(mp3.path) repeats a recording") })
  }

  /// The first catalog song encoded again, as MP3 at 128 kbit/s: the same recording under another file.
  func mp3OfArmygeddon() throws -> URL {
    let mp3 = folder.file("armygeddon.mp3")
    let encoded = try Subprocess.run(
      "ffmpeg", ["-loglevel", "error", "-i", Fixtures.music("catalog-a.ogg").path, "-b:a", "128k", mp3.path])
    try #require(encoded.status == 0, "\(encoded)")
    return mp3
  }

  @Test("catalog duplicates lists an item whose recording an earlier one holds (exit 1); once it is removed, exit 0")
  func duplicatesCommand() throws {
    try CLI.makeCatalog(at: catalogURL)
    let mp3 = try mp3OfArmygeddon()
    let added = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, "--allow-duplicates", mp3.path])
    try #require(added.status == 0, "\(added)")
    let key = try ReferenceFingerprinter.key(ofFileAt: mp3.path)
    let earlierKey = try ReferenceFingerprinter.key(ofFileAt: Fixtures.music("catalog-a.ogg").path)

    let found = try CLI.run(["catalog", "duplicates", "--catalog", catalogURL.path])
    #expect(found.status == 1, "\(found)")
    let lines = CLI.lines(found.stdout)
    #expect(lines.count == 2, "\(found.stdout)")
    #expect(lines.first?.hasPrefix("\(key) \(mp3.path): ") == true, "\(found.stdout)")
    #expect(lines.first?.contains("\"Armygeddon\" by Muldjord (key \(earlierKey), ") == true, "\(found.stdout)")
    #expect(
      lines.last == "\(catalogURL.path): 1 of 4 items repeat the recording of an earlier one; each airing of "
        + "them is logged under whichever copy is matched first: remove them with catalog remove KEY")

    let removed = try CLI.run(["catalog", "remove", "--catalog", catalogURL.path, key])
    try #require(removed.status == 0, "\(removed)")
    let none = try CLI.run(["catalog", "duplicates", "--catalog", catalogURL.path])
    #expect(none.status == 0, "\(none)")
    #expect(CLI.lines(none.stdout) == ["\(catalogURL.path): no item repeats the recording of another (3 items)"])
  }

  /// A folder with copies of the fixtures: the three catalog songs, the unknown song, and two bad files.
  func musicFolder() throws -> URL {
    let music = folder.file("music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    for name in ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg", "unknown.ogg", "corrupt.ogg", "not-audio.ogg"] {
      try FileManager.default.copyItem(at: Fixtures.music(name), to: music.appendingPathComponent(name))
    }
    return music
  }

  /// A catalog file's JSON header, its tracks with every `addedAt` time set to the same, and the bytes after the track
  /// table (the index; the checksum, which covers the times, left out).
  static func parts(of url: URL) throws -> (header: [String: Any], tracks: [CatalogTrack], index: Data) {
    let bytes = try Data(contentsOf: url)
    let headerLength = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    let header = try #require(
      try JSONSerialization.jsonObject(with: bytes.subdata(in: 16..<(16 + headerLength))) as? [String: Any])
    let tableBytes = try #require((header["trackTable"] as? [String: Any])?["bytes"] as? Int)
    // After the header's and the track table's zero padding.
    let indexOffset = (16 + headerLength + 15) / 16 * 16 + (tableBytes + 15) / 16 * 16
    var tracks = try Catalog.load(from: url).tracks
    for i in tracks.indices { tracks[i].addedAt = Date(timeIntervalSinceReferenceDate: 0) }
    return (header, tracks, bytes.subdata(in: indexOffset..<(bytes.count - 8)))
  }

  static func sameParts(_ a: URL, _ b: URL) throws -> Bool {
    let (pa, pb) = (try parts(of: a), try parts(of: b))
    return NSDictionary(dictionary: pa.header).isEqual(to: pb.header) && pa.tracks == pb.tracks && pa.index == pb.index
  }

  @Test("catalog add makes the same catalog with --jobs 1 and --jobs 3: byte for byte, but for the addedAt times")
  func jobsGiveTheSameCatalog() throws {
    let music = try musicFolder()
    var catalogs: [URL] = []
    for jobs in [1, 3] {
      let url = folder.file("jobs-\(jobs).bmcat")
      let result = try CLI.run(["catalog", "add", "--catalog", url.path, "--jobs", "\(jobs)", music.path])
      #expect(result.status == 2, "\(result)")
      #expect(result.stdout.contains("added 4, already present 0, failed 2; now 4 tracks"), "\(result)")
      #expect(result.stdout.contains("with \(jobs) job"), "\(result)")
      // The bad files are named in file order, whatever order the jobs finished in.
      let skipped = CLI.lines(result.stderr).filter { $0.hasPrefix("skipped:") }
      #expect(skipped.map { $0.contains("corrupt.ogg") } == [true, false], "\(result.stderr)")
      catalogs.append(url)
    }
    #expect(try Self.sameParts(catalogs[0], catalogs[1]))
    let loaded = try catalogs.map { try Catalog.load(from: $0) }
    #expect(loaded[0].tracks.map(\.key) == loaded[1].tracks.map(\.key))
    #expect(loaded[0].info().hashCount == loaded[1].info().hashCount)
    #expect(loaded[0].info().hashCount > 0)
  }

  @Test("Adding to a catalog gives the catalog that adding everything at once gives")
  func incrementalAdd() throws {
    let files = ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg", "unknown.ogg"].map { Fixtures.music($0).path }
    let atOnce = folder.file("at-once.bmcat")
    #expect(try CLI.run(["catalog", "add", "--catalog", atOnce.path] + files).status == 0)
    let stepwise = folder.file("stepwise.bmcat")
    #expect(try CLI.run(["catalog", "add", "--catalog", stepwise.path, files[0]]).status == 0)
    #expect(try CLI.run(["catalog", "add", "--catalog", stepwise.path, files[1]]).status == 0)
    let last = try CLI.run(["catalog", "add", "--catalog", stepwise.path] + files)
    #expect(last.stdout.contains("added 2, already present 2, failed 0; now 4 tracks"), "\(last)")
    #expect(try Self.sameParts(atOnce, stepwise))
  }

  @Test("Progress into a pipe: a line per track for a small import, counting up to the total, with hours and time left")
  func progressLines() throws {
    let music = try musicFolder()
    let result = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, "--jobs", "2", music.path])
    let pattern = try Regex(
      #"^catalog add: (\d+)/6 tracks, (\d+\.\d\d) h of audio(, (\d+) failed)?, (about \d.* left|estimating the time left)$"#
    )
    let lines = CLI.lines(result.stderr).filter { $0.hasPrefix("catalog add:") }
    #expect(lines.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(lines)")
    let done = lines.compactMap { line in line.wholeMatch(of: pattern).flatMap { Int($0.output[1].substring ?? "") } }
    // One line per track (two finishing together may share one), counting up.
    #expect(done.count >= 3 && done == done.sorted() && Set(done).count == done.count, "\(lines)")
    #expect(done.last == 6, "\(lines)")
    #expect(lines.last?.hasPrefix("catalog add: 6/6 tracks, 0.03 h of audio, 2 failed, about ") == true, "\(lines)")
  }

  @Test("--jobs must be a whole number from 1 to 256: anything else is a usage error naming it")
  func badJobs() throws {
    for bad in ["0", "-1", "257", "two", "1.5", ""] {
      let result = try CLI.run([
        "catalog", "add", "--catalog", catalogURL.path, "--jobs", bad, Fixtures.music("catalog-a.ogg").path,
      ])
      #expect(result.status == 64, "--jobs \(bad): \(result)")
      #expect(result.stderr.contains("--jobs \(bad): give the number of files to read at once"), "\(result)")
      #expect(!FileManager.default.fileExists(atPath: catalogURL.path))
    }
  }

  @Test("A damaged catalog makes every command exit 78 (configuration) with a checksum message")
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
      #expect(result.status == 78, "\(arguments): \(result)")
      #expect(result.stderr.contains("checksum"), "\(arguments): \(result)")
      #expect(result.stderr.contains(catalogURL.path))
    }
  }

  /// Runs `broadcast-monitor` under `timeout`, so that a command that would block is stopped (exit status 124).
  static func runLimited(_ arguments: [String], seconds: Int = 120) throws -> Subprocess.Result {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    return try Subprocess.run("/usr/bin/timeout", ["-k", "5", String(seconds), executable.path] + arguments)
  }

  /// Rewrites the JSON header of the catalog at `url` with `change`, and seals the file again with a checksum that
  /// matches: damage that the checksum cannot see.
  static func rewriteHeader(of url: URL, _ change: (inout [String: Any]) -> Void) throws {
    let bytes = [UInt8](try Data(contentsOf: url))
    let headerLength = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    var header = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[16..<(16 + headerLength)])) as? [String: Any])
    change(&header)
    let json = [UInt8](try JSONSerialization.data(withJSONObject: header))
    var out = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(json.count).littleEndian) { out += $0 }
    out += json
    while out.count % 16 != 0 { out.append(0) }
    out += bytes[((16 + headerLength + 15) / 16 * 16)..<(bytes.count - 8)]
    let checksum = out.withUnsafeBytes { CatalogChecksum.of($0, formatVersion: Catalog.formatVersion) }
    withUnsafeBytes(of: checksum.littleEndian) { out += $0 }
    try Data(out).write(to: url)
  }

  @Test(
    "A catalog damaged under a valid checksum (FFT size 0) is refused by every command: exit 78, file and fix named")
  func damagedInsides() throws {
    try CLI.makeCatalog(at: catalogURL)
    let key = try #require(try Catalog.load(from: catalogURL).tracks.first?.key)
    try Self.rewriteHeader(of: catalogURL) { header in
      var parameters = header["parameters"] as? [String: Any] ?? [:]
      parameters["fftSizeSamples"] = 0
      header["parameters"] = parameters
    }
    let clip = folder.file("clip.wav")
    try CLI.writeClip(of: "catalog-b.ogg", from: 5, seconds: 8, to: clip)
    let commands: [[String]] = [
      ["catalog", "list", "--catalog", catalogURL.path],
      ["catalog", "info", "--catalog", catalogURL.path],
      ["catalog", "add", "--catalog", catalogURL.path, Fixtures.music("unknown.ogg").path],
      ["catalog", "remove", "--catalog", catalogURL.path, key],
      ["match", "--catalog", catalogURL.path, clip.path],
      ["scan", "--catalog", catalogURL.path, "--channel", "test", clip.path],
      [
        "run", "--catalog", catalogURL.path, "--db", folder.file("plays.sqlite").path, "--channel",
        "test=file:\(clip.path)",
      ],
    ]
    for arguments in commands {
      let result = try Self.runLimited(arguments)
      #expect(result.status == 78, "\(arguments): \(result)")
      #expect(result.stderr.contains("\(catalogURL.path): damaged catalog"), "\(arguments): \(result)")
      #expect(result.stderr.contains("fingerprint.fftSizeSamples"), "\(arguments): \(result)")
      #expect(result.stderr.contains("catalog add --catalog \(catalogURL.path)"), "\(arguments): \(result)")
    }
  }

  @Test("--catalog naming a folder or a FIFO: exit 78 saying what is there, at once")
  func catalogNotAFile() throws {
    let fifo = folder.file("pipe.bmcat").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let clip = folder.file("clip.wav")
    try WAVWriter.write(Signals.silence(seconds: 1), sampleRate: 8000, to: clip)
    let cases = [
      (folder.url.path, "is a folder; name the catalog file (.bmcat) in it"), (fifo, "not a regular file"),
    ]
    for (path, what) in cases {
      for arguments in [
        ["catalog", "info", "--catalog", path], ["match", "--catalog", path, clip.path],
        ["catalog", "add", "--catalog", path, Fixtures.music("catalog-a.ogg").path],
      ] {
        let result = try Self.runLimited(arguments, seconds: 60)
        #expect(result.status == 78, "\(arguments): \(result)")
        #expect(result.stderr.contains("\(path): \(what)"), "\(arguments): \(result)")
      }
    }
  }

  @Test("catalog add skips a FIFO in a folder with a warning naming it, and refuses one named directly: never blocks")
  func fifoToAdd() throws {
    let music = folder.file("music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Fixtures.music("catalog-a.ogg"), to: music.appendingPathComponent("a.ogg"))
    let fifo = music.appendingPathComponent("live.ogg").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let result = try Self.runLimited(["catalog", "add", "--catalog", catalogURL.path, music.path], seconds: 60)
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("skipped: \(fifo): not a regular file"), "\(result)")
    #expect(result.stdout.contains("added 1, already present 0, failed 1; now 1 tracks"), "\(result)")
    let direct = try Self.runLimited(["catalog", "add", "--catalog", catalogURL.path, fifo], seconds: 60)
    #expect(direct.status == 64, "\(direct)")
    #expect(direct.stderr.contains("\(fifo): not a regular file"), "\(direct)")
  }

  @Test("catalog add warns about a folder inside that it cannot read, naming it and why, and adds the rest")
  func unreadableFolder() throws {
    let music = folder.file("music")
    let locked = music.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Fixtures.music("catalog-a.ogg"), to: music.appendingPathComponent("a.ogg"))
    try FileManager.default.copyItem(at: Fixtures.music("catalog-b.ogg"), to: locked.appendingPathComponent("b.ogg"))
    try #require(chmod(locked.path, 0) == 0)
    defer { chmod(locked.path, 0o755) }  // so that the temporary folder can be removed
    let executable = try #require(CLI.executable, CLI.notBuilt)
    // Root reads any folder: without the capabilities that let it, it meets the folder's permissions as anyone does.
    let result =
      geteuid() == 0
      ? try Subprocess.run(
        "/usr/bin/setpriv",
        ["--bounding-set", "-dac_override,-dac_read_search", executable.path, "catalog", "add", "--catalog"]
          + [catalogURL.path, music.path])
      : try CLI.run(["catalog", "add", "--catalog", catalogURL.path, music.path])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("skipped: \(locked.path): cannot read this folder ("), "\(result)")
    #expect(result.stdout.contains("added 1, already present 0, failed 1; now 1 tracks"), "\(result)")
  }

  @Test("catalog add names a file in a folder whose name is not UTF-8, counts it as failed (exit 2) and adds the rest")
  func nonUTF8Name() throws {
    let music = folder.file("music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Fixtures.music("catalog-a.ogg"), to: music.appendingPathComponent("a.ogg"))
    let latin1 = Array(music.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".ogg".utf8)
    let fd = latin1.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { name in
      (Array(name) + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
    }
    try #require(fd >= 0)
    _ = try Data(contentsOf: Fixtures.music("catalog-b.ogg")).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let result = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, music.path])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("/caf\u{FFFD}.ogg: its name is not UTF-8"), "\(result)")
    #expect(result.stdout.contains("added 1, already present 0, failed 1; now 1 tracks"), "\(result)")
  }

  @Test("catalog add refuses a truncated WAV, naming it with the length its header declares and the length it has")
  func truncatedWAV() throws {
    let whole = folder.file("whole.wav")
    try WAVWriter.write(Signals.sine(frequency: 440, seconds: 10, sampleRate: 8000), sampleRate: 8000, to: whole)
    let data = try Data(contentsOf: whole)
    let cut = folder.file("cut.wav")
    try data.prefix(data.count - 8000 * 4 * 9).write(to: cut)  // float samples: 9 of the 10 seconds cut off
    let result = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, cut.path])
    #expect(result.status != 0, "\(result)")
    #expect(
      result.stderr.contains(
        "\(cut.path): truncated WAV file: its header declares 10.0 s (320000 bytes of samples), "
          + "the file holds 1.0 s (32000 bytes)"), "\(result)")
    #expect(result.stdout.contains("added 0"), "\(result)")
  }

  @Test("catalog add --metadata refuses an unknown kind, and text that is not UTF-8, naming the file and the line")
  func badMetadata() throws {
    let sheet = folder.file("tracks.csv")
    let a = Fixtures.music("catalog-a.ogg").path
    try Data("path,title,kind\n\(a),A,song\n\(a),A,podcast\n".utf8).write(to: sheet)
    let kind = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, "--metadata", sheet.path, a])
    #expect(kind.status == 64, "\(kind)")
    #expect(kind.stderr.contains("\(sheet.path), line 3: kind `podcast` is not a kind; write one of `song`"), "\(kind)")
    #expect(kind.stderr.contains("`other`"), "\(kind)")

    try Data("path,title\n\(a),Caf".utf8 + [0xE9] + Data("\n".utf8)).write(to: sheet)  // Latin-1 é
    let latin1 = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, "--metadata", sheet.path, a])
    #expect(latin1.status == 64, "\(latin1)")
    let offset = "path,title\n\(a),Caf".utf8.count
    #expect(latin1.stderr.contains("\(sheet.path), line 2 (byte offset \(offset), 0xE9): not UTF-8"), "\(latin1)")
    #expect(!FileManager.default.fileExists(atPath: catalogURL.path))
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
