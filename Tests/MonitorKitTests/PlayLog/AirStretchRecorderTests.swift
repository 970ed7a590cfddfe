import Foundation
import Matcher
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
}
