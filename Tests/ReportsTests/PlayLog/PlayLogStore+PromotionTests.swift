import Foundation
import Testing

@testable import Reports

/// Promoting a cluster of unknown music: its segments read back, each written once as a `late` play, and the
/// reports that count them. The play log is `AirStretchReportsTests.fixture()`: cluster 1 aired at 09:30 on am and
/// at 10:03:40 and 11:00 on fm; cluster 2 once.
@Suite("PlayLogStore promotion of unknown music")
struct PlayLogStorePromotionTests {
  static let identifiedAt = ISO8601Millis.parse("2026-02-01T12:00:00Z")!

  /// Each segment of `cluster` as the late play of item `found`, as `catalog add --from-unknown` makes them.
  static func latePlays(_ store: PlayLogStore, cluster: Int64) throws -> [LatePlay] {
    try store.unknownSegments(cluster: cluster).map { segment in
      LatePlay(
        segmentID: segment.id,
        play: PlayRecord(
          channel: segment.channel, itemKey: "found", title: "Found", artist: "Someone", itemDurationSeconds: 210,
          start: segment.start, end: segment.end, refOffsetSeconds: segment.clusterOffsetSeconds,
          confidence: segment.musicConfidence, detectedAt: segment.end, status: .late))
    }
  }

  @Test("A cluster's segments come back by start with their channel, offset and clip; none for an unknown cluster")
  func segmentsOfCluster() throws {
    let fixture = try AirStretchReportsTests.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let segments = try store.unknownSegments(cluster: 1)
    #expect(segments.map(\.channel) == ["am", "fm", "fm"])
    #expect(segments.map(\.clusterOffsetSeconds) == [0, 0, 60])
    #expect(segments.map(\.clipPath) == ["clips/am-1.opus", "clips/fm-1.opus", nil])
    #expect(segments.map(\.durationSeconds) == [210, 210, 120])
    #expect(segments.allSatisfy { $0.playID == nil })
    #expect(try store.unknownSegments(cluster: 9).isEmpty)
  }

  @Test("Promotion writes one late play per airing, with when it was identified, and links each segment to it")
  func onePlayPerAiring() throws {
    let fixture = try AirStretchReportsTests.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let ids = try store.recordLatePlays(try Self.latePlays(store, cluster: 1), identifiedAt: Self.identifiedAt)
    #expect(ids.count == 3)
    let plays = try store.plays()
    #expect(plays.map(\.status) == [.late, .late, .late])
    #expect(plays.map(\.channel) == ["am", "fm", "fm"])
    #expect(
      plays.map { ISO8601Millis.format($0.start) } == [
        "2026-01-01T09:30:00.000Z", "2026-01-01T10:03:40.000Z", "2026-01-01T11:00:00.000Z",
      ])
    #expect(plays.map(\.refOffsetSeconds) == [0, 0, 60])
    let identified = try store.database.query("SELECT identified_at_ms FROM plays ORDER BY id").map(\.values)
    #expect(identified == Array(repeating: [.date(Self.identifiedAt)], count: 3))
    #expect(try store.unknownSegments(cluster: 1).map(\.playID) == ids)
    #expect(try store.unknownSegments(cluster: 2).map(\.playID) == [nil])
  }

  @Test("A promoted cluster's segments are never cut or moved by a split, and the clusters rebuilt know it")
  func promotedNeverRevised() throws {
    let fixture = try AirStretchReportsTests.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    try store.recordLatePlays(try Self.latePlays(store, cluster: 1), identifiedAt: Self.identifiedAt)
    let before = try store.unknownSegments(cluster: 1)
    let first = try #require(before.first)
    try store.revise(
      UnknownSegmentRevision(
        channel: first.channel, start: first.start, cluster: 1, clusterOffsetSeconds: 0, fingerprint: "",
        tail: UnknownSegmentRevision.Tail(
          start: first.start.addingTimeInterval(100), cluster: 7, clusterOffsetSeconds: 0, fingerprint: "")))
    #expect(try store.unknownSegments(cluster: 1) == before)
    #expect(try store.unknownSegments(cluster: 7).isEmpty)
    let references = try store.unknownReferences()
    #expect(references.filter { $0.cluster == 1 }.allSatisfy { $0.promoted })
    #expect(references.filter { $0.cluster == 2 }.allSatisfy { !$0.promoted })
  }

  @Test("Promoting a cluster again writes no play twice, and adds only the airings logged since")
  func idempotent() throws {
    let fixture = try AirStretchReportsTests.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let first = try store.recordLatePlays(try Self.latePlays(store, cluster: 1), identifiedAt: Self.identifiedAt)
    #expect(try store.recordLatePlays(try Self.latePlays(store, cluster: 1), identifiedAt: Date()).isEmpty)
    #expect(try store.plays().count == 3)
    try store.record(
      AirStretchRecord(
        channel: "fm", start: ISO8601Millis.parse("2026-01-02T08:00:00Z")!,
        end: ISO8601Millis.parse("2026-01-02T08:03:30Z")!, label: "unknown-music", musicConfidence: 0.9,
        unknown: AirStretchRecord.Unknown(cluster: 1, clusterOffsetSeconds: 0, fingerprint: "AAAA")))
    let second = try store.recordLatePlays(try Self.latePlays(store, cluster: 1), identifiedAt: Self.identifiedAt)
    #expect(second.count == 1 && !first.contains(second[0]))
    #expect(try store.plays().count == 4)
  }

  @Test("A play that is not late is refused, and nothing is written")
  func refusesOtherStatus() throws {
    let fixture = try AirStretchReportsTests.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    var plays = try Self.latePlays(store, cluster: 1)
    plays[1].play.status = .closed
    #expect(throws: PlayLogError.self) { try store.recordLatePlays(plays, identifiedAt: Self.identifiedAt) }
    #expect(try store.plays().isEmpty)
    #expect(try store.unknownSegments(cluster: 1).allSatisfy { $0.playID == nil })
  }

  @Test("Reports count late plays; segments shows them as catalog with item and cluster; unknown leaves them out")
  func reportsIncludeLatePlays() throws {
    let fixture = try AirStretchReportsTests.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    try store.recordLatePlays(try Self.latePlays(store, cluster: 1), identifiedAt: Self.identifiedAt)
    try store.close()
    let scope = AirStretchReportsTests.scope

    let plays = try fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) }
    let playRows = plays.split(separator: "\r\n").dropFirst()
    #expect(playRows.count == 3 && playRows.allSatisfy { $0.hasSuffix(",late") }, "\(plays)")

    let airplay = try fixture.csv { try AirplayReport(scope: scope).write(from: $0, to: $1) }
    #expect(airplay.contains(",found,3,540.000,"), "\(airplay)")

    let segments = try fixture.csv { try SegmentsReport(scope: scope).write(from: $0, to: $1) }
    #expect(segments.contains("am,2026-01-01T09:30:00.000Z,2026-01-01T09:33:30.000Z,catalog,found,1\r\n"))
    #expect(segments.contains("fm,2026-01-01T11:00:00.000Z,2026-01-01T11:02:00.000Z,catalog,found,1\r\n"))
    #expect(segments.contains(",unknown-music,,2\r\n"), "cluster 2 is still unknown: \(segments)")
    #expect(!segments.contains(",unknown-music,,1\r\n"), "\(segments)")

    let unknown = try fixture.csv { try UnknownReport(scope: scope).write(from: $0, to: $1) }
    #expect(unknown.split(separator: "\r\n").map { $0.prefix(2) } == ["cl", "2,"], "\(unknown)")
  }
}
