import Common
import Foundation
import Matcher
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `catalog add --from-unknown`: a scan logs a song the catalog lacks twice as unknown music (one cluster, with
/// clips); promoting the cluster adds it to the catalog and its two airings to the play log as late plays.
@Suite(
  "broadcast-monitor catalog add --from-unknown", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct CatalogCommandFromUnknownTests {
  let folder: TemporaryDirectory
  var catalogURL: URL { folder.file("music.bmcat") }
  var recording: URL { folder.file("broadcast.wav") }
  var db: String { folder.file("plays.sqlite").path }
  var clips: String { folder.file("clips").path }

  init() throws { folder = try TemporaryDirectory(prefix: "cli-from-unknown") }

  /// Talk, the unknown song (40 s), talk, the song again, talk: two airings of 40 s, from 20 s and from 80 s.
  /// Scanned into the play log with clips; returns the airings' spans in seconds.
  func scanUnknownTwice() throws -> [ClosedRange<Double>] {
    try CLI.makeCatalog(at: catalogURL)
    let unknown = try CLI.decode("unknown.ogg")
    let talk = Signals.voiceLike(seconds: 20, amplitude: 0.3, seed: 9)
    try WAVWriter.write(talk + unknown + unknown + talk + unknown + unknown + talk, sampleRate: 8000, to: recording)
    let result = try scan(db: db)
    try #require(result.status == 0, "\(result)")
    try #require(result.stderr.contains("2 unknown music segments in 1 clusters"), "\(result)")
    let song = Double(2 * unknown.count) / 8000
    return [20...(20 + song), (40 + song)...(40 + 2 * song)]
  }

  func scan(db: String? = nil, csv: String? = nil) throws -> Subprocess.Result {
    try CLI.run(
      ["scan", "--catalog", catalogURL.path, "--channel", "test-fm", "--start", "2026-01-01T00:00:00Z"]
        + (db.map { ["--db", $0, "--clips", clips] } ?? []) + (csv.map { ["--csv", $0] } ?? []) + [recording.path])
  }

  func promote(_ cluster: String = "1", catalog: URL? = nil, _ extra: [String] = []) throws -> Subprocess.Result {
    try CLI.run(
      [
        "catalog", "add", "--catalog", (catalog ?? catalogURL).path, "--from-unknown", cluster, "--title", "Found Song",
        "--artist", "Someone", "--isrc", "US-RC1-76-07839", "--db", db,
      ] + extra)
  }

  /// 2026-01-01T00:00:00Z plus `seconds`.
  static func time(_ seconds: Double) -> Date { ScanCommandTests.origin.addingTimeInterval(seconds) }

  @Test("Promotion adds the song and one late play per airing, once; airplay counts them; a rescan matches it")
  func promotes() throws {
    let airings = try scanUnknownTwice()
    let promoted = try promote()
    #expect(promoted.status == 0, "\(promoted)")
    #expect(promoted.stdout.contains("added"), "\(promoted)")
    #expect(promoted.stdout.contains("2 late plays of cluster 1"), "\(promoted)")
    let catalog = try Catalog.load(from: catalogURL)
    let item = try #require(catalog.tracks.first { $0.metadata.title == "Found Song" })
    #expect(item.metadata.artist == "Someone" && item.metadata.isrc == "USRC17607839" && item.metadata.kind == .song)
    #expect(item.sourcePath.hasPrefix(clips + "/test-fm_"), "\(item.sourcePath)")
    #expect(catalog.tracks.count == 4)

    let plays = try PlayLogStore(path: db).plays()
    #expect(plays.map(\.status) == [.late, .late], "\(plays)")
    #expect(plays.allSatisfy { $0.itemKey == item.key && $0.metadata.title == "Found Song" && $0.channel == "test-fm" })
    for (play, airing) in zip(plays, airings) {
      #expect(abs(play.start.timeIntervalSince(Self.time(airing.lowerBound))) < 3, "\(play.start) \(airing)")
      #expect(abs(play.end.timeIntervalSince(Self.time(airing.upperBound))) < 3, "\(play.end) \(airing)")
    }

    // Again, with the reference's clip gone (the retention): the cluster keeps its item, nothing is added twice.
    try FileManager.default.removeItem(atPath: item.sourcePath)
    let again = try promote()
    #expect(again.status == 0, "\(again)")
    #expect(again.stdout.contains("already present \(item.key)"), "\(again)")
    #expect(again.stdout.contains("0 late plays"), "\(again)")
    #expect(try PlayLogStore(path: db).plays().count == 2)
    #expect(try Catalog.load(from: catalogURL).tracks.count == 4)

    let airplay = try CLI.run(["report", "airplay", "--db", db, "--tz", "UTC"])
    #expect(airplay.stdout.contains("Found Song,Someone,,USRC17607839,,song,\(item.key),2,"), "\(airplay)")
    let segments = try CLI.run(["report", "segments", "--db", db, "--tz", "UTC"])
    #expect(segments.stdout.components(separatedBy: ",catalog,\(item.key),1\r\n").count == 3, "\(segments)")

    // The same air scanned again with the new catalog: the song is a catalog item now, in each airing.
    let csv = folder.file("rescan.csv").path
    let rescan = try scan(csv: csv)
    #expect(rescan.status == 0 && rescan.stderr.contains("0 unknown music segments"), "\(rescan)")
    let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n").dropFirst()
      .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    let found = rows.filter { $0[4] == "Found Song" }
    for airing in airings {
      let inside = found.filter {
        guard let start = ISO8601Millis.parse($0[1]) else { return false }
        return (airing.lowerBound - 3...airing.upperBound).contains(start.timeIntervalSince(Self.time(0)))
      }
      #expect(!inside.isEmpty, "no play of the new item in the airing \(airing): \(rows)")
    }
  }

  @Test(
    "A cluster whose recording the catalog holds already (added since the scan) is not promoted, naming the item; --allow-duplicates promotes it"
  )
  func recordingAlreadyPresent() throws {
    _ = try scanUnknownTwice()
    let song = Fixtures.music("unknown.ogg").path
    let added = try CLI.run(["catalog", "add", "--catalog", catalogURL.path, song])
    try #require(added.status == 0, "\(added)")
    let before = try Data(contentsOf: catalogURL)

    let refused = try promote()
    #expect(refused.status == 1, "\(refused)")
    #expect(refused.stderr.contains("the catalog holds this recording already"), "\(refused.stderr)")
    #expect(refused.stderr.contains("\"Mutilated Mime\" by Muldjord (\(song))"), "names the item: \(refused.stderr)")
    #expect(try Data(contentsOf: catalogURL) == before)
    #expect(try PlayLogStore(path: db).plays().isEmpty, "no late play")

    let anyway = try promote("1", catalog: nil, ["--allow-duplicates"])
    #expect(anyway.status == 0, "\(anyway)")
    #expect(anyway.stderr.contains("added anyway (--allow-duplicates)"), "\(anyway.stderr)")
    #expect(anyway.stdout.contains("2 late plays of cluster 1"), "\(anyway)")
  }

  @Test("An unknown cluster (64), no clip left (66) or an unwritable catalog (73) is refused, nothing written")
  func badInput() throws {
    _ = try scanUnknownTwice()
    let before = try Data(contentsOf: catalogURL)

    let noCluster = try promote("9")
    #expect(noCluster.status == 64, "\(noCluster)")
    #expect(noCluster.stderr.contains("has no cluster 9 of unknown music; `report unknown --db"), "\(noCluster)")
    let notNumber = try promote("one")
    #expect(notNumber.status == 64 && notNumber.stderr.contains("not a cluster number"), "\(notNumber)")

    let unwritable = try promote(catalog: folder.file("missing-folder/music.bmcat"))
    #expect(unwritable.status == 73, "\(unwritable)")
    #expect(unwritable.stderr.contains("missing-folder does not exist"), "\(unwritable)")

    let kept = try FileManager.default.contentsOfDirectory(atPath: clips).map { clips + "/" + $0 }
    #expect(kept.count == 2)
    for path in kept { try FileManager.default.removeItem(atPath: path) }
    let noClip = try promote()
    #expect(noClip.status == 66, "\(noClip)")
    #expect(noClip.stderr.contains("cluster 1 has no clip to build the reference from"), "\(noClip)")
    #expect(kept.allSatisfy { noClip.stderr.contains($0) }, "names the clips: \(noClip)")
    #expect(noClip.stderr.contains("Add the recording from its own audio file"), "\(noClip)")

    #expect(try Data(contentsOf: catalogURL) == before)
    #expect(try PlayLogStore(path: db).plays().isEmpty)

    let strayTitle = try CLI.run([
      "catalog", "add", "--catalog", catalogURL.path, "--title", "x", Fixtures.music("catalog-a.ogg").path,
    ])
    #expect(strayTitle.status == 64 && strayTitle.stderr.contains("--title describes"), "\(strayTitle)")
  }

  @Test("A segment cut in two by a cluster split builds its reference from its part of the shared clip")
  func splitSegmentPart() {
    func part(from start: Double, to end: Double, clipStart: Double?) -> [Double]? {
      let segment = UnknownSegment(
        id: 1, channel: "fm", start: Self.time(start), end: Self.time(end), musicConfidence: 0.9, cluster: 1,
        clusterOffsetSeconds: 0, clipPath: "c.opus", playID: nil, clipStart: clipStart.map(Self.time))
      return CatalogCommand.segmentPart(of: segment, clipSeconds: 200).map { [$0.from, $0.to] }
    }
    // The clip holds 100–300 s of air; the segment was cut at 180 s.
    #expect(part(from: 100, to: 180, clipStart: 100) == [0, 80])
    #expect(part(from: 180, to: 300, clipStart: 100) == [80, 200])
    // A segment's own clip, whole or lacking its start, is used whole.
    #expect(part(from: 100, to: 300, clipStart: 100) == nil)
    #expect(part(from: 50, to: 300, clipStart: 100) == nil)
    #expect(part(from: 100, to: 300, clipStart: nil) == nil)
  }

  @Test("A late play's offset counts from the reference clip's start, later than its segment's when the clip lacks it")
  func clipLead() {
    func segment(start: Double, clipStart: Double?, offset: Double) -> UnknownSegment {
      UnknownSegment(
        id: 1, channel: "fm", start: Self.time(start), end: Self.time(start + 600), musicConfidence: 0.9, cluster: 1,
        clusterOffsetSeconds: offset, clipPath: "c.opus", playID: nil, clipStart: clipStart.map(Self.time))
    }
    func offset(ofAiringAt airingOffset: Double, clipStart: Double?, clipSeconds: Double) -> Double {
      let reference = CatalogCommand.PromotedReference(
        segment: segment(start: 100, clipStart: clipStart, offset: 0), key: "k", durationSeconds: clipSeconds)
      return CatalogCommand.latePlay(
        of: segment(start: 2000, clipStart: nil, offset: airingOffset), reference: reference, key: "k",
        metadata: TrackMetadata(title: "Found"), durationSeconds: clipSeconds
      ).refOffsetSeconds
    }
    // The reference clip holds its segment from 60 s in (the play log says so, or its length does): an airing at
    // the cluster's start begins 60 s before the reference.
    #expect(offset(ofAiringAt: 0, clipStart: 160, clipSeconds: 540) == -60)
    #expect(abs(offset(ofAiringAt: 0, clipStart: nil, clipSeconds: 540) + 60) < 1e-9)
    #expect(offset(ofAiringAt: 5, clipStart: 100, clipSeconds: 600) == 5, "a whole clip")
    #expect(offset(ofAiringAt: 5, clipStart: nil, clipSeconds: 599.97) == 5, "a whole clip written before 009_clips")
  }
}
