import Foundation
import Matcher
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite(
  "broadcast-monitor scan", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct ScanCommandTests {
  static let header =
    "channel,start,end,duration_s,title,artist,album,isrc,label,kind,ref_offset_s,speed,confidence,detected_at"
  /// 2026-01-01T00:00:00Z.
  static let origin = Date(timeIntervalSince1970: 1_767_225_600)

  let folder: TemporaryDirectory
  var catalogURL: URL { folder.file("music.bmcat") }
  var recording: URL { folder.file("broadcast.wav") }

  init() throws {
    folder = try TemporaryDirectory(prefix: "cli-scan")
  }

  /// unknown (20 s) + a (30 s) + b (30 s), mono at 8 kHz: a airs from 20 s, b from 50 s.
  func writeBroadcast() throws -> [(title: String, start: Double, end: Double)] {
    let unknown = try CLI.decode("unknown.ogg")
    let a = try CLI.decode("catalog-a.ogg")
    let b = try CLI.decode("catalog-b.ogg")
    try WAVWriter.write(unknown + a + b, sampleRate: 8000, to: recording)
    let aStart = Double(unknown.count) / 8000
    let bStart = aStart + Double(a.count) / 8000
    return [
      ("Armygeddon", aStart, bStart),
      ("Chaos God", bStart, bStart + Double(b.count) / 8000),
    ]
  }

  @Test(
    "--csv on a full disk fails naming the file, leaves the CSV there before it, and no .partial",
    .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
  func csvOnFullDisk() throws {
    try CLI.makeCatalog(at: catalogURL)
    _ = try writeBroadcast()
    let disk = try SmallDisk(in: folder)
    defer { withExtendedLifetime(disk) {} }  // mounted to the end of the test
    let csv = disk.file("plays.csv").path
    try Data("yesterday's scan\r\n".utf8).write(to: URL(fileURLWithPath: csv))
    let filler = try disk.fill()
    let arguments = ["scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--csv", csv, recording.path]
    let result = try CLI.run(arguments)
    #expect(result.status != 0, "\(result)")
    #expect(result.stderr.contains(csv), "names the file: \(result)")
    #expect(try String(contentsOfFile: csv, encoding: .utf8) == "yesterday's scan\r\n", "the CSV before it stays")
    #expect(!FileManager.default.fileExists(atPath: csv + ".partial"), "no partial file left behind")
    try FileManager.default.removeItem(at: filler)
    #expect(try CLI.run(arguments).status == 0)
    #expect(try String(contentsOfFile: csv, encoding: .utf8).hasPrefix(Self.header), "with room, the new CSV")
  }

  @Test("--csv or --db naming the recording or the catalog, or a missing folder, is refused before the scan")
  func outputsCheckedFirst() throws {
    try CLI.makeCatalog(at: catalogURL)
    _ = try writeBroadcast()
    let recordingBytes = try Data(contentsOf: recording)
    let catalogBytes = try Data(contentsOf: catalogURL)
    for (option, path, message) in [
      ("--csv", recording.path, "is the recording this command reads"),
      ("--db", catalogURL.path, "is the catalog this command reads"),
      ("--csv", folder.file("missing/plays.csv").path, "the folder \(folder.file("missing").path) does not exist"),
    ] {
      let result = try CLI.run(["scan", "--catalog", catalogURL.path, "--channel", "fm", option, path, recording.path])
      #expect(result.status == 64 && result.stderr.contains(message), "\(option) \(path): \(result)")
    }
    #expect(try Data(contentsOf: recording) == recordingBytes && Data(contentsOf: catalogURL) == catalogBytes)
  }

  @Test("--db on a play log that a monitor writes to is refused with status 75, naming the monitor")
  func playLogInUse() throws {
    try CLI.makeCatalog(at: catalogURL)
    _ = try writeBroadcast()
    let db = folder.file("plays.sqlite").path
    let monitor = try PlayLogLock(playLog: db, command: "run")  // what a running monitor holds
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--db", db, recording.path,
    ])
    #expect(result.status == 75, "\(result)")
    #expect(result.stderr.contains("is in use by another broadcast-monitor: `run`, pid \(getpid())"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: db), "nothing was written")
    monitor.release()
    let again = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--db", db, recording.path,
    ])
    #expect(again.status == 0, "\(again)")
    #expect(try PlayLogStore(path: db).plays().count == 2)
  }

  @Test("the same recording scanned twice into one play log gives each play once, closed, and says so")
  func sameRecordingScannedTwice() throws {
    try CLI.makeCatalog(at: catalogURL)
    let expected = try writeBroadcast()
    let db = folder.file("plays.sqlite").path
    let arguments = [
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z", "--db", db,
      recording.path,
    ]
    let first = try CLI.run(arguments)
    try #require(first.status == 0, "\(first)")
    let before = try PlayLogStore(path: db).plays()
    let again = try CLI.run(arguments)
    #expect(again.status == 0, "\(again)")
    let after = try PlayLogStore(path: db).plays()
    #expect(after.map(\.metadata.title) == expected.map(\.title), "\(after)")
    #expect(after.allSatisfy { $0.status == .closed }, "\(after.map(\.status))")
    #expect(after.map(\.start) == before.map(\.start) && after.map(\.end) == before.map(\.end))
    #expect(again.stderr.contains("is already in the play log as play 1 "), "\(again.stderr)")
    #expect(!again.stderr.contains("cut by a gap"), "a rescan is not an airing cut short: \(again.stderr)")
  }

  @Test("--db logs the unknown music; a second scan's repeat of it joins its cluster, and the reports show them")
  func unknownMusic() throws {
    try CLI.makeCatalog(at: catalogURL)
    // a (catalog), synthetic talk, then the unknown excerpt twice: 40 s of music the catalog does not have.
    let unknown = try CLI.decode("unknown.ogg")
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    try WAVWriter.write(try CLI.decode("catalog-a.ogg") + talk + unknown + unknown, sampleRate: 8000, to: recording)
    let db = folder.file("plays.sqlite").path
    for channel in ["test-fm", "test-am"] {
      let result = try CLI.run([
        "scan", "--catalog", catalogURL.path, "--channel", channel, "--start", "2026-01-01T00:00:00Z", "--db", db,
        recording.path,
      ])
      #expect(result.status == 0, "\(result)")
      #expect(result.stderr.contains("1 unknown music segments in 1 clusters"), "\(result)")
    }
    let segments = try CLI.run(["report", "segments", "--db", db, "--tz", "UTC"])
    let rows = segments.stdout.split(separator: "\r\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    #expect(rows.first?.joined(separator: ",") == "channel,start,end,label,item,cluster")
    let unknownRows = rows.filter { $0.count == 6 && $0[3] == "unknown-music" }
    #expect(unknownRows.map { String($0[0]) } == ["test-am", "test-fm"], "\(segments.stdout)")
    #expect(unknownRows.allSatisfy { $0[5] == "1" }, "one cluster: \(segments.stdout)")
    #expect(rows.contains { $0.count == 6 && $0[3] == "catalog" && $0[0] == "test-fm" })
    #expect(rows.contains { $0.count == 6 && $0[3] == "speech" && $0[0] == "test-fm" })
    let report = try CLI.run(["report", "unknown", "--db", db, "--tz", "UTC"])
    let lines = report.stdout.split(separator: "\r\n")
    #expect(lines.count == 2, "\(report.stdout)")
    #expect(lines.last?.hasPrefix("1,2026-01-01T00:00:5") == true, "\(report.stdout)")
    #expect(lines.last?.contains(",2,") == true && lines.last?.contains("test-am;test-fm") == true, "\(report.stdout)")
  }

  @Test("--clips keeps the unknown music as an Opus clip as long as the segment, its path in the play log's report")
  func unknownClips() throws {
    try CLI.makeCatalog(at: catalogURL)
    let unknown = try CLI.decode("unknown.ogg")
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    try WAVWriter.write(talk + unknown + unknown + talk, sampleRate: 8000, to: recording)
    let db = folder.file("plays.sqlite").path
    let clips = folder.file("clips").path
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z", "--db", db,
      "--clips", clips, recording.path,
    ])
    #expect(result.status == 0, "\(result)")
    let report = try CLI.run(["report", "unknown", "--db", db, "--tz", "UTC"])
    let row = try #require(report.stdout.split(separator: "\r\n").dropFirst().first, "\(report.stdout)")
    let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let path = try #require(fields.last)
    #expect(path.hasPrefix(clips + "/test-fm_2026-01-01T00-00-"), "\(row)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: clips) == [(path as NSString).lastPathComponent])
    let probe = try Subprocess.run(
      "/usr/bin/ffprobe",
      ["-v", "error", "-show_entries", "stream=codec_name,channels:format=duration", "-of", "default=nw=1", path])
    #expect(probe.status == 0 && probe.stdout.contains("codec_name=opus") && probe.stdout.contains("channels=1"))
    let duration = probe.stdout.split(separator: "\n").first { $0.hasPrefix("duration=") }
      .flatMap { Double($0.dropFirst("duration=".count)) }
    let segmentSeconds = try #require(Double(fields[4]))
    #expect(abs((duration ?? 0) - segmentSeconds) < 1, "clip \(duration ?? 0) s, segment \(segmentSeconds) s")
  }

  @Test("--catalog-play-clips song keeps each catalog play's audio beside the unknown music's, in proof-of-play")
  func catalogPlayClips() throws {
    try CLI.makeCatalog(at: catalogURL)
    let truth = try writeBroadcast()
    let db = folder.file("plays.sqlite").path
    let clips = folder.file("clips").path
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z", "--db", db,
      "--clips", clips, "--catalog-play-clips", "song", recording.path,
    ])
    #expect(result.status == 0, "\(result)")
    let names = try FileManager.default.contentsOfDirectory(atPath: clips).filter { $0.hasSuffix("_song.opus") }
      .sorted()
    #expect(names.count == truth.count, "\(names)")
    let plays = try PlayLogStore(path: db).plays()
    for (name, play) in zip(names, plays) {
      let seconds = AudioFileDecoder(ffmpegSampleRate: 8000).probeDurationSeconds(path: "\(clips)/\(name)") ?? 0
      #expect(abs(seconds - play.end.timeIntervalSince(play.start)) < 0.1, "\(name) holds the whole play")
    }
    let report = try CLI.run(["report", "proof-of-play", "--db", db, "--tz", "UTC", "--kind", "song"])
    for name in names { #expect(report.stdout.contains(",\(clips)/\(name),0.000"), "\(report.stdout)") }

    // `none`, the default, keeps no clip of a play; a kind that is none is a usage error naming it and the words.
    let none = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z", "--csv",
      folder.file("plays.csv").path, "--clips", folder.file("none").path, "--catalog-play-clips", "none",
      recording.path,
    ])
    #expect(none.status == 0, "\(none)")
    let kept = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("none").path)) ?? []
    #expect(!kept.contains { $0.hasSuffix("_song.opus") }, "\(kept)")
    let bad = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--clips", clips, "--catalog-play-clips",
      "ad,spots", recording.path,
    ])
    #expect(bad.status == 64 && bad.stderr.contains("--catalog-play-clips ad,spots: `spots` is not an item kind"))
    let noFolder = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--catalog-play-clips", "all", recording.path,
    ])
    #expect(noFolder.status == 64 && noFolder.stderr.contains("--catalog-play-clips needs --clips DIR"), "\(noFolder)")
  }

  @Test("--clips into a folder that cannot be made says so in one line, and logs the segment without a clip")
  func unwritableClips() throws {
    try CLI.makeCatalog(at: catalogURL)
    let unknown = try CLI.decode("unknown.ogg")
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    try WAVWriter.write(talk + unknown + unknown + talk, sampleRate: 8000, to: recording)
    let db = folder.file("plays.sqlite").path
    let notAFolder = folder.file("file")
    try Data("x".utf8).write(to: notAFolder)
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z", "--db", db,
      "--clips", notAFolder.path + "/clips", recording.path,
    ])
    #expect(result.status == 0, "\(result)")
    let lines = result.stderr.split(separator: "\n").filter { $0.contains("not kept") }
    #expect(lines.count == 1 && lines[0].contains("logged without a clip"), "\(result)")
    #expect(result.stderr.contains("1 unknown music segments in 1 clusters"), "\(result)")
    let report = try CLI.run(["report", "unknown", "--db", db, "--tz", "UTC"])
    let row = report.stdout.split(separator: "\r\n").dropFirst().first
    #expect(row?.hasSuffix(",test-fm,") == true, "the clip column is empty: \(report.stdout)")
  }

  @Test("--db writes the plays a stopped monitor left in the play log's spool first, once")
  func replaysSpool() throws {
    try CLI.makeCatalog(at: catalogURL)
    _ = try writeBroadcast()
    let db = folder.file("plays.sqlite").path
    let left = PlayLogWriterTests.play("left by run", start: 1000)
    try PlaySpool(playLogPath: db).append([
      PlaySpool.Entry(command: .start(token: 1, play: left)),
      PlaySpool.Entry(
        command: .update(
          token: 1, start: left.start, end: left.end.addingTimeInterval(20), refOffsetSeconds: 0, speed: 1,
          confidence: 0.9, closed: true)),
    ])
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--db", db, recording.path,
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("2 writes kept by the last run were replayed"), "\(result.stderr)")
    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.map(\.metadata.title) == ["left by run", "Armygeddon", "Chaos God"], "\(plays)")
    #expect(plays.first?.status == .closed)
    #expect(!FileManager.default.fileExists(atPath: db + ".spool"))
  }

  @Test("--csv into a FIFO or a null device writes into it and leaves it what it was, never a regular file")
  func csvIntoSpecialFiles() throws {
    try CLI.makeCatalog(at: catalogURL)
    _ = try writeBroadcast()
    func scan(to path: String) throws {
      let result = try CLI.run([
        "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--csv", path, recording.path,
      ])
      #expect(result.status == 0, "\(result)")
    }
    // A FIFO, read by cat.
    let fifo = try FIFOReader(path: folder.file("plays.fifo").path)
    try scan(to: fifo.path)
    let text = try #require(fifo.text(), "scan closed the FIFO")
    #expect(text.hasPrefix(Self.header + "\r\n"))
    #expect(text.contains("Armygeddon") && text.contains("Chaos God"))
    #expect(fifo.isFIFO)
    // A null device like /dev/null, made in the test's folder (creating one needs root, as CI runs). scan once
    // replaced /dev/null itself with an empty regular file, for every program on the machine.
    let null = folder.file("null").path
    let mknod = try BackgroundProcess(
      executable: "/usr/bin/mknod", arguments: ["-m", "666", null, "c", "1", "3"],
      outputPath: folder.file("mknod.out").path)
    if mknod.waitForExit(seconds: 10) == 0 {
      try scan(to: null)
      var info = stat()
      #expect(stat(null, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still a character device")
    }
  }

  @Test("scan --csv --db logs a then b, at the right times, identically in the CSV and the SQLite play log")
  func scan() throws {
    try CLI.makeCatalog(at: catalogURL)
    let truth = try writeBroadcast()
    let csv = folder.file("plays.csv")
    let db = folder.file("plays.sqlite")
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z", "--csv",
      csv.path, "--db", db.path, recording.path,
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("scan test-fm: 2 plays in 80 s of audio"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)

    let text = try String(contentsOf: csv, encoding: .utf8)
    #expect(text.hasPrefix(Self.header + "\r\n"))
    let records = try MetadataSheet.parse(text, path: csv.path)
    #expect(records.first == Self.header.split(separator: ",").map(String.init))
    let rows = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(records[0], $0)) }
    #expect(rows.map { $0["title"] } == truth.map(\.title))
    #expect(rows.map { $0["isrc"] } == ["ZZBMF2600001", "ZZBMF2600002"])
    #expect(rows.allSatisfy { $0["channel"] == "test-fm" && $0["kind"] == "song" && $0["artist"] == "Muldjord" })
    let stamp = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/#
    for row in rows {
      for column in ["start", "end", "detected_at"] {
        let value = row[column] ?? ""
        #expect(value.wholeMatch(of: stamp) != nil, "\(column) \(value)")
      }
    }
    for (row, expected) in zip(rows, truth) {
      let start = try #require(ISO8601Millis.parse(row["start"] ?? ""))
      let end = try #require(ISO8601Millis.parse(row["end"] ?? ""))
      #expect(abs(start.timeIntervalSince(Self.origin) - expected.start) <= 1, "\(expected.title) start")
      #expect(abs(end.timeIntervalSince(Self.origin) - expected.end) <= 1, "\(expected.title) end")
      #expect(abs((Double(row["duration_s"] ?? "") ?? 0) - end.timeIntervalSince(start)) < 0.002)
    }

    let store = try PlayLogStore(path: db.path)
    let plays = try store.plays()
    #expect(plays.map(\.metadata.title) == truth.map(\.title))
    #expect(plays.map { ISO8601Millis.format($0.start) } == rows.map { $0["start"] ?? "" })
    #expect(plays.map { ISO8601Millis.format($0.end) } == rows.map { $0["end"] ?? "" })
    #expect(plays.map { ISO8601Millis.format($0.detectedAt) } == rows.map { $0["detected_at"] ?? "" })
    #expect(plays.allSatisfy { $0.channel == "test-fm" && $0.status == .closed })
    let keys = try ["catalog-a.ogg", "catalog-b.ogg"].map {
      try ReferenceFingerprinter.key(ofFileAt: Fixtures.music($0).path)
    }
    #expect(plays.map(\.itemKey) == keys)
  }

  @Test("scan without --csv or --db prints the CSV on stdout; without --start, times end at the file's modification")
  func scanToStdout() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clip = folder.file("a.wav")
    try CLI.writeClip(of: "catalog-a.ogg", from: 0, seconds: 12, to: clip)
    let modified = try #require(try FileManager.default.attributesOfItem(atPath: clip.path)[.modificationDate] as? Date)
    let result = try CLI.run(["scan", "--catalog", catalogURL.path, "--channel", "x", clip.path])
    #expect(result.status == 0, "\(result)")
    let records = try MetadataSheet.parse(result.stdout, path: "stdout")
    #expect(records.first?.joined(separator: ",") == Self.header)
    #expect(records.count == 2)
    let start = try #require(ISO8601Millis.parse(records.last?[1] ?? ""))
    #expect(abs(start.timeIntervalSince(modified) + 12) <= 1)
  }

  @Test("scan without --start says on stderr which start time it took; with --start it says nothing of it")
  func saysStart() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clip = folder.file("a.wav")
    try CLI.writeClip(of: "catalog-a.ogg", from: 0, seconds: 6, to: clip)
    let modified = try #require(try FileManager.default.attributesOfItem(atPath: clip.path)[.modificationDate] as? Date)
    let result = try CLI.run(["scan", "--catalog", catalogURL.path, "--channel", "x", clip.path])
    #expect(result.status == 0, "\(result)")
    let expected = ISO8601Millis.format(modified.addingTimeInterval(-6))
    #expect(result.stderr.contains("scan x: no --start, so the recording is taken to begin at "), "\(result.stderr)")
    let said = result.stderr.components(separatedBy: "begin at ").last?.prefix(expected.count) ?? ""
    let saidDate = try #require(ISO8601Millis.parse(String(said)), "\(result.stderr)")
    #expect(abs(saidDate.timeIntervalSince(modified) + 6) <= 0.1)
    let given = try CLI.run(
      ["scan", "--catalog", catalogURL.path, "--channel", "x", "--start", "2026-01-01T00:00:00Z", clip.path])
    #expect(given.status == 0, "\(given)")
    #expect(!given.stderr.contains("no --start"))
  }

  @Test("scan with a --start that is not ISO 8601 is a usage error naming the value")
  func badStart() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clip = folder.file("silence.wav")
    try WAVWriter.write(Signals.silence(seconds: 1), sampleRate: 8000, to: clip)
    let result = try CLI.run([
      "scan", "--catalog", catalogURL.path, "--channel", "x", "--start", "yesterday", clip.path,
    ])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--start yesterday"))
  }

  @Test("scan with a --channel name that run would refuse is a usage error naming it")
  func badChannelName() throws {
    try CLI.makeCatalog(at: catalogURL)
    let clip = folder.file("silence.wav")
    try WAVWriter.write(Signals.silence(seconds: 1), sampleRate: 8000, to: clip)
    let result = try CLI.run(["scan", "--catalog", catalogURL.path, "--channel", "a b", clip.path])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("--channel a b: `a b` contains ` `; a channel name becomes"), "\(result)")
  }

  @Test("scan of a recording that does not exist exits 1 naming it")
  func missingRecording() throws {
    try CLI.makeCatalog(at: catalogURL)
    let missing = folder.file("missing.wav").path
    let result = try CLI.run(["scan", "--catalog", catalogURL.path, "--channel", "x", missing])
    #expect(result.status == 1)
    #expect(result.stderr.contains(missing))
  }
}
