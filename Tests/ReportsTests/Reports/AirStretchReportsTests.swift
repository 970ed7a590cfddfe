import Foundation
import Testing

@testable import Reports

/// `report segments` and `report unknown` on a small play log of stretches, against the golden CSVs in
/// `Tests/Fixtures/golden/reports` (set UPDATE_GOLDEN=1 to rewrite them on purpose).
@Suite("SegmentsReport and UnknownReport")
struct AirStretchReportsTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/golden/reports")

  /// Two channels: cluster 1 aired twice on fm and once on am, cluster 2 once; talk, a catalog play, silence.
  static func fixture() throws -> ReportFixture {
    let fixture = try ReportFixture([])
    let store = try PlayLogStore(path: fixture.path)
    func at(_ text: String) -> Date { ISO8601Millis.parse(text)! }
    func unknown(_ cluster: Int64, _ offset: Double, clip: String? = nil) -> AirStretchRecord.Unknown {
      AirStretchRecord.Unknown(cluster: cluster, clusterOffsetSeconds: offset, fingerprint: "AAAA", clipPath: clip)
    }
    let stretches = [
      AirStretchRecord(
        channel: "fm", start: at("2026-01-01T10:00:00Z"), end: at("2026-01-01T10:03:00Z"), label: "catalog",
        itemKey: "k-north", musicConfidence: 0.9),
      AirStretchRecord(
        channel: "fm", start: at("2026-01-01T10:03:00Z"), end: at("2026-01-01T10:03:40Z"), label: "speech",
        musicConfidence: 0.1),
      AirStretchRecord(
        channel: "fm", start: at("2026-01-01T10:03:40Z"), end: at("2026-01-01T10:07:10Z"), label: "unknown-music",
        musicConfidence: 0.88, unknown: unknown(1, 0, clip: "clips/fm-1.opus")),
      AirStretchRecord(
        channel: "fm", start: at("2026-01-01T10:07:10Z"), end: at("2026-01-01T10:07:12Z"), label: "silence",
        musicConfidence: 0),
      AirStretchRecord(
        channel: "fm", start: at("2026-01-01T11:00:00Z"), end: at("2026-01-01T11:02:00Z"), label: "unknown-music",
        musicConfidence: 0.9, unknown: unknown(1, 60)),
      AirStretchRecord(
        channel: "am", start: at("2026-01-01T09:30:00Z"), end: at("2026-01-01T09:33:30Z"), label: "unknown-music",
        musicConfidence: 0.8, unknown: unknown(1, 0, clip: "clips/am-1.opus")),
      AirStretchRecord(
        channel: "am", start: at("2026-01-01T09:33:30Z"), end: at("2026-01-01T09:34:00Z"), label: "mixed",
        musicConfidence: 0.5),
      AirStretchRecord(
        channel: "am", start: at("2026-01-01T09:34:00Z"), end: at("2026-01-01T09:38:00Z"), label: "unknown-music",
        musicConfidence: 0.85, unknown: unknown(2, 0)),
    ]
    for s in stretches { try store.record(s) }
    try store.record(stretches[0])  // a replayed write adds nothing
    try store.close()
    return fixture
  }

  static let scope = ReportScope(defaultTimeZone: .utc)

  static func expectGolden(_ text: String, _ name: String) throws {
    let url = golden.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    #expect(text == (try String(contentsOf: url, encoding: .utf8)), "golden \(name)")
  }

  @Test("segments: one row per stretch, by channel then time, with the catalog item and the cluster")
  func segments() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let text = try fixture.csv { try SegmentsReport(scope: Self.scope).write(from: $0, to: $1) }
    try Self.expectGolden(text, "segments.csv")
  }

  @Test("unknown: one row per cluster, most aired first, with its channels and the longest airing's clip")
  func unknown() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let text = try fixture.csv { try UnknownReport(scope: Self.scope).write(from: $0, to: $1) }
    try Self.expectGolden(text, "unknown.csv")
  }

  @Test("--channel and --from narrow both reports")
  func scoped() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    var scope = Self.scope
    scope.channelName = "fm"
    scope.from = ReportBound("2026-01-01T10:30:00Z")
    let segments = try fixture.csv { try SegmentsReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      segments
        == crlf(
          "channel,start,end,label,item,cluster",
          "fm,2026-01-01T11:00:00.000Z,2026-01-01T11:02:00.000Z,unknown-music,,1"))
    let unknown = try fixture.csv { try UnknownReport(scope: scope).write(from: $0, to: $1) }
    #expect(
      unknown
        == crlf(
          "cluster,first_aired,last_aired,airings,total_s,channels,clip",
          "1,2026-01-01T11:00:00.000Z,2026-01-01T11:00:00.000Z,1,120.000,fm,"))
  }

  @Test("A play log without the timeline's rows gives the header only")
  func empty() throws {
    let fixture = try ReportFixture([])
    defer { fixture.remove() }
    let text = try fixture.csv { try UnknownReport(scope: Self.scope).write(from: $0, to: $1) }
    #expect(text == crlf("cluster,first_aired,last_aired,airings,total_s,channels,clip"))
  }

  @Test("The clusters' fingerprints come back oldest first, for the restart")
  func fingerprints() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let store = try PlayLogStore(path: fixture.path)
    let rows = try store.unknownFingerprints()
    #expect(rows.map(\.cluster) == [1, 2, 1, 1])
    #expect(rows.map(\.clusterOffsetSeconds) == [0, 0, 0, 60])
  }
}
