import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `scan` (a recording, decoded as fast as it goes) and `run` with a `file:` channel (the same recording played at
/// real-time pace through a `StreamInput`) share the matcher, the play-event sink and the play-log writer: given the
/// same audio, they must log the same plays into their play logs. A layout change that wires one of them differently
/// shows here.
@Suite(
  "scan and run agree", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct ScanRunAgreementTests {
  /// How far apart the two commands may place a play, once `run`'s start of audio is lined up with `scan`'s
  /// `--start`. Both take the same samples, hop by hop, so the matcher reports a play at the same stream time
  /// (`StreamMatcher` fed random buffer sizes); what differs is the wall-clock stamp `run`'s file input gives its
  /// audio: the reader thread stamps each connection from how fast the audio arrives (`StreamReader`), and the
  /// stream clock re-anchors only when it is off by more than 20 ms (`StreamClock`). A quarter of a second covers
  /// both with room for a busy test machine, and is still far below the 2.5 s between a play's hops that would
  /// matter to a report.
  static let startToleranceSeconds = 0.25
  /// The same samples give the same references offset and speed; the rounding of the play log's columns is all
  /// that may differ.
  static let offsetToleranceSeconds = 0.01
  static let speedTolerance = 0.0005

  static let scanStart = "2026-01-01T00:00:00Z"

  @Test("The same recording logs the same plays (item, start, offset, speed) by scan and by run's file channel")
  func samePlays() throws {
    let folder = try TemporaryDirectory(prefix: "scan-run")
    let catalog = folder.file("music.bmcat")
    let made = try CLI.makeCatalog(at: catalog)
    try #require(made.status == 0, "\(made)")
    // 6 s of unknown music, 14 s of b, a from its start for 12 s, 4 s of unknown music: two plays, a segue.
    let recording = folder.file("broadcast.wav")
    let unknown = try CLI.decode("unknown.ogg")
    let a = try CLI.decode("catalog-a.ogg")
    let b = try CLI.decode("catalog-b.ogg")
    try WAVWriter.write(
      Array(unknown[0..<48_000]) + Array(b[32_000..<144_000]) + Array(a[0..<96_000]) + Array(unknown[80_000..<112_000]),
      sampleRate: 8000, to: recording)

    let scanDB = folder.file("scan.sqlite").path
    let scan = try CLI.run([
      "scan", "--catalog", catalog.path, "--channel", "fm", "--start", Self.scanStart, "--db", scanDB, recording.path,
    ])
    try #require(scan.status == 0, "\(scan)")
    let scanned = try PlayLogStore(path: scanDB).plays().sorted { $0.start < $1.start }
    try #require(scanned.map(\.metadata.title) == ["Chaos God", "Armygeddon"], "\(scanned)")

    let runDB = folder.file("run.sqlite").path
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let launched = Date()
    let monitor = try BackgroundProcess(
      executable: executable.path,
      arguments: ["run", "--catalog", catalog.path, "--db", runDB, "--channel", "fm=file:" + recording.path],
      outputPath: folder.file("run.log").path)
    // The file is played once: both plays have ended when the second has (a play ends at the file's end at the latest).
    let deadline = Date().addingTimeInterval(90)
    while !monitor.output.contains("play ended: \"Armygeddon\"") && monitor.isRunning && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)  // polls the log, up to the deadline
    }
    monitor.send(SIGTERM)
    #expect(monitor.waitForExit(seconds: 20) == 0, "\(monitor.output)")
    let ran = try PlayLogStore(path: runDB).plays().sorted { $0.start < $1.start }
    try #require(
      ran.map(\.metadata.title) == scanned.map(\.metadata.title),
      "run logged \(ran), scan \(scanned)\n\(monitor.output)")

    // Line the run's audio up with the scan's start through the first play, then every play must agree.
    let origin = try #require(ISO8601Millis.parse(Self.scanStart))
    let shift = ran[0].start.timeIntervalSince(scanned[0].start)
    let audioBegan = origin.addingTimeInterval(shift)
    #expect(
      audioBegan >= launched.addingTimeInterval(-1) && audioBegan <= launched.addingTimeInterval(10),
      "run's audio began \(audioBegan.timeIntervalSince(launched)) s after the launch")
    for (byRun, byScan) in zip(ran, scanned) {
      let runStart = byRun.start.timeIntervalSince(origin) - shift
      let scanStart = byScan.start.timeIntervalSince(origin)
      #expect(byRun.itemKey == byScan.itemKey && byRun.metadata.kind == byScan.metadata.kind)
      #expect(byRun.channel == byScan.channel && byRun.status == .closed && byScan.status == .closed)
      #expect(
        abs(runStart - scanStart) <= Self.startToleranceSeconds,
        "\(byScan.metadata.title): run at \(runStart) s, scan at \(scanStart) s into the recording")
      #expect(
        abs(byRun.refOffsetSeconds - byScan.refOffsetSeconds) <= Self.offsetToleranceSeconds,
        "\(byScan.metadata.title): offset \(byRun.refOffsetSeconds) by run, \(byScan.refOffsetSeconds) by scan")
      #expect(
        abs(byRun.speed - byScan.speed) <= Self.speedTolerance,
        "\(byScan.metadata.title): speed \(byRun.speed) by run, \(byScan.speed) by scan")
    }
  }
}
