import Foundation
import Testing

@testable import Reports

/// The promotion of a cluster of unknown music, against both stores.
extension PlayLogStorageContractTests {
  /// Two airings of cluster 3 and one of cluster 4 on fm; cluster 3 promoted twice.
  static func promotionScript(_ store: any PlayLogStorage) throws {
    let time = PlayLogStoreTests.time
    for (start, cluster) in [(100_000, 3), (400_000, 4), (900_000, 3)] as [(Int64, Int64)] {
      try store.record(
        AirStretchRecord(
          channel: "fm", start: time(start), end: time(start + 200_000), label: "unknown-music",
          musicConfidence: 0.875,
          unknown: AirStretchRecord.Unknown(
            cluster: cluster, clusterOffsetSeconds: Double(start) / 100_000, fingerprint: "QUJD", clipPath: "c.opus")))
    }
    for _ in 0..<2 {
      let segments = try store.unknownSegments(cluster: 3)
      #expect(segments.map(\.clusterOffsetSeconds) == [1, 9])
      #expect(segments.map(\.clipPath) == ["c.opus", "c.opus"])
      let plays = segments.filter { $0.playID == nil }.map { segment in
        LatePlay(
          segmentID: segment.id,
          play: PlayRecord(
            channel: segment.channel, itemKey: "found", title: "Found", start: segment.start, end: segment.end,
            refOffsetSeconds: segment.clusterOffsetSeconds - 1, confidence: segment.musicConfidence,
            detectedAt: segment.end, status: .late))
      }
      try store.recordLatePlays(plays, identifiedAt: time(5_000_000))
    }
    #expect(try store.unknownSegments(cluster: 3).allSatisfy { $0.playID != nil })
    #expect(try store.unknownSegments(cluster: 4).map(\.playID) == [nil])
  }

  @Test("Both stores promote a cluster alike: one late play per airing, written once", arguments: Engine.allCases)
  func promotionAlike(engine: Engine) throws {
    let plays = try Self.withStore(engine, Self.promotionScript)
    #expect(plays == (try Self.withStore(.sqlite, Self.promotionScript)))
    #expect(plays.map(\.status) == [.late, .late])
    #expect(plays.map(\.refOffsetSeconds) == [0, 8])
  }
}
