import Foundation
import Matcher
import Reports
import Synchronization
import TestSupport
import Testing

@testable import MonitorKit

@Suite("AirStretchRecorder")
struct AirStretchRecorderTests {
  static let songA = SyntheticSong(seed: 21, seconds: 100).render()
  static let songB = SyntheticSong(seed: 22, seconds: 100).render()

  static func query(_ samples: [Float]) throws -> Signature {
    let generator = SignatureGenerator(purpose: .query)
    try generator.append(samples, sampleRate: 8000)
    return generator.signature()
  }

  static func unknownStretch(_ samples: [Float], from startSeconds: Double) throws -> AirStretch {
    AirStretch(
      label: .unknownMusic, startSeconds: startSeconds, endSeconds: startSeconds + Double(samples.count) / 8000,
      musicConfidence: 0.9, signature: try query(samples))
  }

  @Test("Two unknown songs aired back to back, each heard before, are two segments in two clusters")
  func backToBack() throws {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let origin = Date(timeIntervalSince1970: 1_700_000_000)
    let recorder = AirStretchRecorder(channel: "fm1", clusters: clusters, writer: nil, keepsRecords: true) {
      origin.addingTimeInterval($0)
    }
    recorder.receive(try Self.unknownStretch(Self.songA, from: 0))
    recorder.receive(try Self.unknownStretch(Self.songB, from: 200))
    let segue = Array(Self.songA[0..<(70 * 8000)] + Self.songB[(10 * 8000)..<(80 * 8000)])
    recorder.receive(try Self.unknownStretch(segue, from: 1000))

    let records = recorder.recorded
    #expect(records.count == 4)
    let clustersOfSegments = records.map { $0.unknown?.cluster }
    #expect(clustersOfSegments == [1, 2, 1, 2])
    guard records.count == 4 else { return }
    // The two parts cover the stretch, cut near where the songs meet.
    #expect(records[2].start == origin.addingTimeInterval(1000))
    #expect(records[3].end == origin.addingTimeInterval(1140))
    #expect(records[2].end == records[3].start)
    #expect(abs(records[2].end.timeIntervalSince(origin) - 1070) < 5, "cut at \(records[2].end)")
    #expect(records[2].label == "unknown-music" && records[3].label == "unknown-music")
  }

  @Test(
    "A segment of two songs first heard back to back is cut in the play log once each song has aired alone, and the split survives a reopen"
  )
  func retroactiveSplitPersists() throws {
    let folder = try TemporaryDirectory(prefix: "recorder-split")
    let path = folder.file("plays.sqlite").path
    let log = MonitorLog(write: { _ in })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log)
    let origin = Date(timeIntervalSince1970: 1_700_000_000)
    let recorder = AirStretchRecorder(
      channel: "fm1", clusters: UnknownClusters(parameters: FingerprintParameters()), writer: writer, log: log
    ) { origin.addingTimeInterval($0) }
    recorder.receive(try Self.unknownStretch(Array(Self.songA + Self.songB), from: 0))
    recorder.receive(try Self.unknownStretch(Self.songB, from: 1000))
    recorder.receive(try Self.unknownStretch(Self.songA, from: 2000))
    #expect(writer.stop().isEmpty)

    let store = try PlayLogStore(path: path)
    let rows = try store.unknownReferences()
    try #require(rows.count == 4, "\(rows)")
    // The segue's two parts, each in the cluster of its song's airing alone, and the two clusters differ.
    let cluster = Dictionary(
      rows.map { ($0.start.timeIntervalSince(origin), $0.cluster) }, uniquingKeysWith: { a, _ in a })
    let cut = try #require(rows.map { $0.start.timeIntervalSince(origin) }.first { $0 > 0 && $0 < 1000 })
    #expect(abs(cut - 100) < 5, "cut at \(cut) s")
    #expect(cluster[0] == cluster[2000] && cluster[cut] == cluster[1000] && cluster[0] != cluster[cut])
    let segments = try store.unknownSegments(cluster: try #require(cluster[0]))
    #expect(segments.first?.end == origin.addingTimeInterval(cut), "the segue's first part ends at the cut")
    try store.close()

    // After a restart, the clusters rebuilt from the play log put each song's next airing in its own cluster.
    let reopened = try PlayLogStore(path: path)
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    #expect(try AirStretchRecorder.restoreClusters(clusters, from: reopened) == 4)
    #expect(clusters.assign(try Self.query(Array(Self.songB[(10 * 8000)..<(80 * 8000)]))).cluster == cluster[1000])
    #expect(clusters.assign(try Self.query(Array(Self.songA[(10 * 8000)..<(80 * 8000)]))).cluster == cluster[2000])
  }

  @Test("Speech and silence are recorded as they come, without a cluster")
  func otherLabels() {
    let clusters = UnknownClusters(parameters: FingerprintParameters())
    let recorder = AirStretchRecorder(channel: "fm1", clusters: clusters, writer: nil, keepsRecords: true) {
      Date(timeIntervalSince1970: $0)
    }
    recorder.receive(AirStretch(label: .speech, startSeconds: 0, endSeconds: 30, musicConfidence: 0.1))
    #expect(recorder.recorded.map(\.label) == ["speech"])
    #expect(recorder.recorded.first?.unknown == nil)
    #expect(clusters.segmentCount == 0)
  }

  @Test(
    "A clip that lacks its segment's start is recorded with the span it holds, and logged once as a warning",
    .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
  func shortClip() throws {
    let folder = try TemporaryDirectory(prefix: "recorder")
    let path = folder.file("plays.sqlite").path
    let lines = Mutex<[String]>([])
    let log = MonitorLog(write: { line in lines.withLock { $0.append(line) } })
    let writer = PlayLogWriter(store: try PlayLogStore(path: path), log: log)
    let clipsFolder = folder.file("clips").path
    let clips = UnknownClipWriter(
      directory: clipsFolder, settings: UnknownClipSettings(clipsDirectory: clipsFolder), sampleRateHz: 8000, log: log)
    let origin = Date(timeIntervalSince1970: 1_700_000_000)
    let recorder = AirStretchRecorder(
      channel: "fm1", clusters: UnknownClusters(parameters: FingerprintParameters()), writer: writer, clips: clips,
      log: log
    ) { origin.addingTimeInterval($0) }
    // A 100 s segment from 50 s, of which the ring held only the last 60 s.
    var stretch = try Self.unknownStretch(Self.songA, from: 50)
    stretch.audio = Array(Self.songA[(40 * 8000)...])
    stretch.audioStartSeconds = 90
    recorder.receive(stretch)
    // One that it held whole.
    var whole = try Self.unknownStretch(Self.songB, from: 300)
    whole.audio = Self.songB
    whole.audioStartSeconds = 300
    recorder.receive(whole)
    clips.waitUntilIdle()
    #expect(writer.stop().isEmpty)

    let store = try PlayLogStore(path: path)
    let segments = try store.unknownSegments(cluster: 1) + store.unknownSegments(cluster: 2)
    try #require(segments.count == 2, "\(segments)")
    #expect(segments[0].start == origin.addingTimeInterval(50))
    #expect(segments[0].clipStart == origin.addingTimeInterval(90), "the span the clip holds, not the segment's")
    #expect(segments[1].clipStart == origin.addingTimeInterval(300))
    let warnings = lines.withLock { $0 }.filter { $0.contains("holds the last") }
    #expect(warnings.count == 1, "\(lines.withLock { $0 })")
    #expect(warnings.first?.contains("60.0 s of its 100.0 s segment") == true, "\(warnings)")
  }
}
