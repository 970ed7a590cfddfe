import Foundation
import Testing

@testable import Reports

@Suite("QuotaReport")
struct QuotaReportTests {
  /// Canada's CRTC rule: 35 % Canadian (MAPL: two of music, artist, performance, lyrics) popular music, over the
  /// broadcast week (6:00 to midnight) and Monday to Friday 6:00 to 18:00.
  static let crtc = QuotaRule(
    name: "CRTC Canadian content", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2, kinds: [.song],
    targetPercent: 35, period: .week,
    dayParts: [
      DayPart(name: "broadcast week", startMinute: 6 * 60, endMinute: 24 * 60),
      DayPart(name: "Mon-Fri 6-18", weekdays: Set(0...4), startMinute: 6 * 60, endMinute: 18 * 60),
    ])

  /// France: 40 % of songs in French.
  static let france = QuotaRule(
    name: "France 40% francophone", attribute: "language", qualifyingValues: ["fr", "fra"], kinds: [.song],
    targetPercent: 40)

  static let header =
    "channel,rule,day_part,period_start,period_end,qualifying_plays,total_plays,fragments,share_percent,target_percent,"
    + "result"

  @Test("CRTC: the broadcast week passes at 50 % while Monday to Friday 6-18 fails at 33.3 %")
  func crtcPassAndFail() throws {
    // The week of Monday 2026-01-12 in Toronto (EST, -05:00).
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-01-12T12:00:00Z", seconds: 180),  // Mon 07:00, Canadian
      .init(channel: "ckua", item: "hit", start: "2026-01-12T13:00:00Z", seconds: 200),  // Mon 08:00, one flag
      .init(channel: "ckua", item: "hit", start: "2026-01-13T15:00:00Z", seconds: 200),  // Tue 10:00
      .init(channel: "ckua", item: "sale", start: "2026-01-14T17:00:00Z", seconds: 30),  // Wed 12:00, an ad
      .init(channel: "ckua", item: "north", start: "2026-01-18T01:00:00Z", seconds: 180),  // Sat 20:00, Canadian
      .init(channel: "ckua", item: "north", start: "2026-01-18T10:00:00Z", seconds: 180),  // Sun 05:00, before 6
    ])
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["ckua": .toronto])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [Self.crtc]).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          Self.header,
          "ckua,CRTC Canadian content,broadcast week,2026-01-12T00:00:00.000-05:00,2026-01-19T00:00:00.000-05:00,"
            + "2,4,0,50.0,35.0,pass",
          "ckua,CRTC Canadian content,Mon-Fri 6-18,2026-01-12T00:00:00.000-05:00,2026-01-19T00:00:00.000-05:00,"
            + "1,3,0,33.3,35.0,fail"))
  }

  @Test("France: exactly 40 % passes in the week the clocks go back, 33.3 % fails the week after")
  func francePassAndFail() throws {
    let fixture = try ReportFixture([
      // The week of Monday 2026-10-19 in Paris; Sunday the 25th has 02:30 twice.
      .init(channel: "fip", item: "mer", start: "2026-10-19T08:00:00Z", seconds: 150),
      .init(channel: "fip", item: "hit", start: "2026-10-20T08:00:00Z", seconds: 200),
      .init(channel: "fip", item: "hit", start: "2026-10-21T08:00:00Z", seconds: 200),
      .init(channel: "fip", item: "mer", start: "2026-10-25T00:30:00Z", seconds: 150),  // 02:30 +02:00
      .init(channel: "fip", item: "hit", start: "2026-10-25T01:30:00Z", seconds: 200),  // 02:30 +01:00
      .init(channel: "fip", item: "ident", start: "2026-10-25T22:59:00Z", seconds: 5),  // Sun 23:59, a jingle
      // The next week: Monday 00:00 +01:00 starts it.
      .init(channel: "fip", item: "mer", start: "2026-10-25T23:00:00Z", seconds: 150),
      .init(channel: "fip", item: "hit", start: "2026-10-27T08:00:00Z", seconds: 200),
      .init(channel: "fip", item: "north", start: "2026-10-28T08:00:00Z", seconds: 180),
    ])
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["fip": .paris])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [Self.france]).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          Self.header,
          "fip,France 40% francophone,whole week,2026-10-19T00:00:00.000+02:00,2026-10-26T00:00:00.000+01:00,"
            + "2,5,0,40.0,40.0,pass",
          "fip,France 40% francophone,whole week,2026-10-26T00:00:00.000+01:00,2026-11-02T00:00:00.000+01:00,"
            + "1,3,0,33.3,40.0,fail"))
  }

  @Test("Rules with different periods each get whole periods: a week and a month that start on different days")
  func mixedPeriods() throws {
    // Tuesday 2026-03-03 and Wednesday 2026-04-01 in Paris; March starts on a Sunday.
    let fixture = try ReportFixture([
      .init(channel: "fip", item: "mer", start: "2026-03-03T08:00:00Z", seconds: 150),
      .init(channel: "fip", item: "hit", start: "2026-03-01T08:00:00Z", seconds: 200),
      .init(channel: "fip", item: "hit", start: "2026-04-01T08:00:00Z", seconds: 200),
    ])
    defer { fixture.remove() }
    var monthly = Self.france
    monthly.name = "monthly"
    monthly.period = .month
    let scope = ReportScope(channelTimeZones: ["fip": .paris])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [Self.france, monthly]).write(from: $0, to: $1) }
    let rows = try StrictCSVParser.parse(text).dropFirst().map { [$0[1], $0[3], $0[4], $0[5], $0[6]] }
    #expect(
      rows == [
        ["France 40% francophone", "2026-02-23T00:00:00.000+01:00", "2026-03-02T00:00:00.000+01:00", "0", "1"],
        ["France 40% francophone", "2026-03-02T00:00:00.000+01:00", "2026-03-09T00:00:00.000+01:00", "1", "1"],
        // Three weeks without plays: one row that spans them.
        ["France 40% francophone", "2026-03-09T00:00:00.000+01:00", "2026-03-30T00:00:00.000+02:00", "0", "0"],
        ["France 40% francophone", "2026-03-30T00:00:00.000+02:00", "2026-04-06T00:00:00.000+02:00", "0", "1"],
        ["monthly", "2026-03-01T00:00:00.000+01:00", "2026-04-01T00:00:00.000+02:00", "1", "2"],
        ["monthly", "2026-04-01T00:00:00.000+02:00", "2026-05-01T00:00:00.000+02:00", "0", "1"],
      ])
  }

  @Test("A week cut by --from and --to shows the part it covers and counts only the plays in it")
  func cutPeriods() throws {
    let fixture = try ReportFixture([
      .init(channel: "fip", item: "mer", start: "2026-10-20T08:00:00Z", seconds: 150),  // Tue
      .init(channel: "fip", item: "hit", start: "2026-10-22T08:00:00Z", seconds: 200),  // Thu
      .init(channel: "fip", item: "hit", start: "2026-10-24T08:00:00Z", seconds: 200),  // Sat
    ])
    defer { fixture.remove() }
    let scope = ReportScope(
      from: ReportBound("2026-10-21"), to: ReportBound("2026-10-24"), channelTimeZones: ["fip": .paris])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [Self.france]).write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          Self.header,
          "fip,France 40% francophone,whole week,2026-10-21T00:00:00.000+02:00,2026-10-24T00:00:00.000+02:00,"
            + "0,1,0,0.0,40.0,fail"))
  }

  @Test("A period without counted plays says so instead of passing or failing")
  func noPlays() throws {
    let fixture = try ReportFixture([
      .init(channel: "fip", item: "sale", start: "2026-10-20T08:00:00Z", seconds: 30)
    ])
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["fip": .paris])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [Self.france]).write(from: $0, to: $1) }
    #expect(try StrictCSVParser.parse(text).last?.suffix(5) == ["0", "0", "", "40.0", "no plays"])
  }

  @Test("A 12 s fragment of a qualifying song is left out of both numbers and counted as a fragment")
  func fragments() throws {
    let fixture = try ReportFixture([
      .init(channel: "fip", item: "mer", start: "2026-10-20T08:00:00Z", seconds: 12),  // a fragment of 150 s
      .init(channel: "fip", item: "hit", start: "2026-10-20T09:00:00Z", seconds: 200),
      .init(channel: "fip", item: "mer", start: "2026-10-21T08:00:00Z", seconds: 135),  // exactly 90 %: counts
    ])
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["fip": .paris])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [Self.france]).write(from: $0, to: $1) }
    #expect(try StrictCSVParser.parse(text).last?.suffix(6) == ["1", "2", "1", "50.0", "40.0", "pass"])

    // With minimumPlayedSeconds, a 135 s play falls short of 140 s.
    var strict = Self.france
    strict.minimumPlayedSeconds = 140
    let strictText = try fixture.csv { try QuotaReport(scope: scope, rules: [strict]).write(from: $0, to: $1) }
    #expect(try StrictCSVParser.parse(strictText).last?.suffix(6) == ["0", "1", "2", "0.0", "40.0", "fail"])
  }

  @Test("A rule runs only on the channels it names")
  func channels() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "hit", start: "2026-10-20T08:00:00Z", seconds: 200),
      .init(channel: "fip", item: "mer", start: "2026-10-20T08:00:00Z", seconds: 150),
    ])
    defer { fixture.remove() }
    var france = Self.france
    france.channels = ["fip"]
    let scope = ReportScope(channelTimeZones: ["fip": .paris, "ckua": .toronto])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [france]).write(from: $0, to: $1) }
    #expect(try StrictCSVParser.parse(text).dropFirst().map { $0[0] } == ["fip"])
  }

  @Test("A sub-quota is checked within the qualifying plays and reported on its own row")
  func subQuota() throws {
    var items = ReportFixture.items
    items["nouveau"] = ReportFixture.item(
      key: "cat:nouveau", title: "Premier Titre", attributes: ["language": "fr", "novelty": "New Talent"],
      seconds: 160)
    let fixture = try ReportFixture(
      [
        .init(channel: "fip", item: "mer", start: "2026-10-20T08:00:00Z", seconds: 150),
        .init(channel: "fip", item: "mer", start: "2026-10-20T09:00:00Z", seconds: 150),
        .init(channel: "fip", item: "nouveau", start: "2026-10-20T10:00:00Z", seconds: 160),
        .init(channel: "fip", item: "hit", start: "2026-10-20T11:00:00Z", seconds: 200),
      ], items: items)
    defer { fixture.remove() }
    var france = Self.france
    france.subQuotas = [
      QuotaSubQuota(
        name: "new productions or new talent",
        criterion: QuotaCriterion(attribute: "novelty", qualifyingValues: ["new production", "new talent"]),
        targetPercent: 50)
    ]
    let scope = ReportScope(channelTimeZones: ["fip": .paris])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [france]).write(from: $0, to: $1) }
    let rows = try StrictCSVParser.parse(text).dropFirst().map { [$0[1]] + $0.suffix(6) }
    #expect(
      rows == [
        ["France 40% francophone", "3", "4", "0", "75.0", "40.0", "pass"],
        ["France 40% francophone / new productions or new talent", "1", "3", "", "33.3", "50.0", "fail"],
      ])
  }

  @Test("A rule's week can start on Sunday, the CRTC's broadcast week")
  func weekStartsOnSunday() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-01-17T15:00:00Z", seconds: 180),  // Sat 10:00
      .init(channel: "ckua", item: "hit", start: "2026-01-18T15:00:00Z", seconds: 200),  // Sun 10:00
    ])
    defer { fixture.remove() }
    var crtc = Self.crtc
    crtc.weekStartsOn = 6
    crtc.dayParts = [DayPart(name: "broadcast week", startMinute: 6 * 60, endMinute: 24 * 60)]
    let scope = ReportScope(channelTimeZones: ["ckua": .toronto])
    let text = try fixture.csv { try QuotaReport(scope: scope, rules: [crtc]).write(from: $0, to: $1) }
    let rows = try StrictCSVParser.parse(text).dropFirst().map { [$0[3], $0[4], $0[5], $0[6]] }
    #expect(
      rows == [
        ["2026-01-11T00:00:00.000-05:00", "2026-01-18T00:00:00.000-05:00", "1", "1"],
        ["2026-01-18T00:00:00.000-05:00", "2026-01-25T00:00:00.000-05:00", "0", "1"],
      ])
  }

  @Test("A quarter by day with plays only on its first and last days is three rows, not ninety")
  func emptyDaysSummarised() throws {
    let fixture = try ReportFixture([
      .init(channel: "fip", item: "mer", start: "2026-01-01T08:00:00Z", seconds: 150),
      .init(channel: "fip", item: "hit", start: "2026-03-31T08:00:00Z", seconds: 200),
    ])
    defer { fixture.remove() }
    let scope = ReportScope(channelTimeZones: ["fip": .paris])
    let text = try fixture.csv {
      try QuotaReport(scope: scope, rules: [Self.france], grouping: .day).write(from: $0, to: $1)
    }
    let rows = try StrictCSVParser.parse(text).dropFirst().map { [$0[3], $0[4], $0[10]] }
    #expect(
      rows == [
        ["2026-01-01T00:00:00.000+01:00", "2026-01-02T00:00:00.000+01:00", "pass"],
        ["2026-01-02T00:00:00.000+01:00", "2026-03-31T00:00:00.000+02:00", "no plays"],
        ["2026-03-31T00:00:00.000+02:00", "2026-04-01T00:00:00.000+02:00", "fail"],
      ])
  }

  @Test("MAPL flags qualify written together, with separators, in any case; values compare without case")
  func qualification() {
    func item(_ attributes: [String: String]) -> CatalogItem {
      CatalogItem(id: 1, key: "k", title: "t", attributes: attributes)
    }
    #expect(Self.crtc.qualifies(item(["MAPL": "MAPL"])))
    #expect(Self.crtc.qualifies(item(["mapl": "m,a"])))
    #expect(Self.crtc.qualifies(item(["Mapl": " P L "])))
    #expect(!Self.crtc.qualifies(item(["mapl": "A"])))
    #expect(!Self.crtc.qualifies(item(["mapl": "XYZ"])))
    #expect(!Self.crtc.qualifies(item([:])))
    #expect(Self.france.qualifies(item(["Language": "FR"])))
    #expect(!Self.france.qualifies(item(["language": "french"])))
    #expect(Self.crtc.isMet(qualifying: 7, total: 20))
    #expect(!Self.crtc.isMet(qualifying: 6, total: 20))
  }
}
