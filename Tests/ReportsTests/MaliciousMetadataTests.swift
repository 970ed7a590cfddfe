import Foundation
import Testing

@testable import Reports

/// Catalog metadata is outside input: whatever it holds, every report stays valid RFC 4180 that a strict reader
/// takes back field for field, and no cell can run as a spreadsheet formula.
@Suite("Malicious metadata in reports")
struct MaliciousMetadataTests {
  static let titles = [
    "=HYPERLINK(\"http://evil.example\",\"click\")", "+1+1", "-2+3", "@SUM(A1:A2)", "\tTab", "\rReturn",
    "quote \" inside", "comma, inside", "line\nbreak", "crlf\r\nbreak", "東京 📻 Ünïcödé", "  spaces  ", "",
  ]

  static func fixture() throws -> ReportFixture {
    var items = ReportFixture.items
    for (index, title) in titles.enumerated() {
      items["evil\(index)"] = ReportFixture.item(
        key: "cat:evil\(index)", title: title, artist: "=cmd|' /C calc'!A0", album: "@album", isrc: "-ISRC\(index)",
        label: "+label", kind: index % 2 == 0 ? .song : .ad, attributes: ["advertiser": "=evil()", "mapl": "MA"],
        seconds: 60)
    }
    var plays: [ReportFixture.Play] = []
    for index in titles.indices {
      plays.append(
        .init(
          channel: "=ch", item: "evil\(index)", start: "2026-05-01T10:\(index < 10 ? "0" : "")\(index):00Z",
          seconds: 30))
    }
    return try ReportFixture(plays, items: items)
  }

  /// What a strict reader must give back for `value`: the value itself, with a quote in front when it starts like
  /// a formula.
  static func expected(_ value: String) -> String {
    guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
    return "'" + value
  }

  @Test("Titles, artists and attributes round-trip through a strict CSV reader, neutralized where they could run")
  func roundTrip() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(timeZoneOverride: .utc)
    let plays = try StrictCSVParser.parse(fixture.csv { try PlaysReport(scope: scope).write(from: $0, to: $1) })
    #expect(plays.count == Self.titles.count + 1)
    #expect(plays.dropFirst().map { $0[4] } == Self.titles.map(Self.expected))
    for row in plays.dropFirst() {
      #expect(row[0] == "'=ch")
      #expect(row[5] == "'=cmd|' /C calc'!A0")
      #expect(row[6] == "'@album" && row[7].hasPrefix("'-ISRC") && row[8] == "'+label")
      #expect(row[1].hasPrefix("2026-05-01T10:"))
    }

    let airplay = try StrictCSVParser.parse(
      fixture.csv { try AirplayReport(scope: scope, byChannel: true).write(from: $0, to: $1) })
    #expect(Set(airplay.dropFirst().map { $0[1] }) == Set(Self.titles.map(Self.expected)))

    let proof = try StrictCSVParser.parse(fixture.csv { try ProofOfPlayReport(scope: scope).write(from: $0, to: $1) })
    #expect(proof.dropFirst().allSatisfy { $0[0] == "'=evil()" })
    #expect(proof.count - 1 == Self.titles.indices.filter { $0 % 2 == 1 }.count)

    let quota = try StrictCSVParser.parse(
      fixture.csv {
        try QuotaReport(scope: scope, rules: [QuotaReportTests.crtc]).write(from: $0, to: $1)
      })
    #expect(quota.dropFirst().allSatisfy { $0[0] == "'=ch" })
  }

  @Test("The pipe-delimited Report of Use keeps one record per line and one field per pipe, and the data as written")
  func pipe() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let writer = PipeDelimitedWriter()
    try SoundExchangeReport(
      scope: ReportScope(timeZoneOverride: .utc), serviceName: "=svc", transmissionCategory: "B",
      audiencePerPlay: nil
    ).write(from: PlayLogReader(path: fixture.path), to: writer)
    let lines = writer.text.components(separatedBy: "\r\n").dropLast()
    #expect(lines.count == 1 + Self.titles.indices.filter { $0 % 2 == 0 }.count)
    for line in lines {
      #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\t"))
      #expect(line.split(separator: "|", omittingEmptySubsequences: false).count == SoundExchangeReport.header.count)
    }
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("=svc|B|=cmd") })
    #expect(lines.contains { $0.contains("東京 📻 Ünïcödé") })
  }
}
