import Foundation
import Testing

@testable import Reports

@Suite("SoundExchangeReport")
struct SoundExchangeReportTests {
  static func fixture() throws -> ReportFixture {
    try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-02-01T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "hit", start: "2026-02-01T13:00:00Z", seconds: 200),
      .init(channel: "ckua", item: "north", start: "2026-02-02T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "sale", start: "2026-02-02T12:10:00Z", seconds: 30),
      .init(channel: "ckua2", item: "north", start: "2026-02-03T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "north", start: "2026-03-01T12:00:00Z", seconds: 180),
    ])
  }

  /// The golden Report of Use files: `Tests/Fixtures/golden/reports/soundexchange.{csv,txt}` (set UPDATE_GOLDEN=1
  /// to rewrite them on purpose).
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/golden/reports")

  /// `text` against the golden file `name`.
  static func expectGolden(_ text: String, _ name: String) throws {
    let url = golden.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil {
      try Data(text.utf8).write(to: url)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(text == expected, "\(name) differs from its golden file")
  }

  @Test("The header is SoundExchange's Report of Use template: its eleven columns in its order")
  func templateHeader() {
    // The template's header row (SoundExchange's Report of Use Excel template, as Rivendell's export_soundex and
    // other playout systems write it).
    #expect(
      SoundExchangeReport.header.joined(separator: ",")
        == "NAME_OF_SERVICE,TRANSMISSION_CATEGORY,FEATURED_ARTIST,SOUND_RECORDING_TITLE,ISRC,ALBUM_TITLE,"
        + "MARKETING_LABEL,ACTUAL_TOTAL_PERFORMANCES,AGGREGATE_TUNING_HOURS,CHANNEL_OR_PROGRAM_NAME,PLAY_FREQUENCY")
  }

  @Test("One row per sound recording and channel in February, performances = plays × listeners per play; ads left out")
  func csv() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(
      from: ReportBound("2026-02-01"), to: ReportBound("2026-03-01"), channelTimeZones: ["ckua": .toronto])
    let report = SoundExchangeReport(
      scope: scope, serviceName: "CKUA Radio, Inc.", transmissionCategory: "B", audiencePerPlay: 1250.5)
    let text = try fixture.csv { try report.write(from: $0, to: $1) }
    #expect(
      text
        == crlf(
          "NAME_OF_SERVICE,TRANSMISSION_CATEGORY,FEATURED_ARTIST,SOUND_RECORDING_TITLE,ISRC,ALBUM_TITLE,"
            + "MARKETING_LABEL,ACTUAL_TOTAL_PERFORMANCES,AGGREGATE_TUNING_HOURS,CHANNEL_OR_PROGRAM_NAME,PLAY_FREQUENCY",
          "\"CKUA Radio, Inc.\",B,Aurora Band,Northern Lights,CAAAA2600001,Borealis,Maple Music,2501,,ckua,",
          "\"CKUA Radio, Inc.\",B,Global Star,Summer Hit,USBBB2600002,Hits,Big Label,1251,,ckua,",
          "\"CKUA Radio, Inc.\",B,Aurora Band,Northern Lights,CAAAA2600001,Borealis,Maple Music,1251,,ckua2,"))
    try Self.expectGolden(text, "soundexchange.csv")
  }

  @Test("The pipe-delimited variant, with the play frequency in its own last column when the audience is unknown")
  func pipe() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let scope = ReportScope(channelName: "ckua", timeZoneOverride: .utc)
    let report = SoundExchangeReport(
      scope: scope, serviceName: "CKUA | Edmonton", transmissionCategory: "B", audiencePerPlay: nil)
    let reader = try PlayLogReader(path: fixture.path)
    let writer = PipeDelimitedWriter()
    try report.write(from: reader, to: writer)
    #expect(
      writer.text
        == crlf(
          "NAME_OF_SERVICE|TRANSMISSION_CATEGORY|FEATURED_ARTIST|SOUND_RECORDING_TITLE|ISRC|ALBUM_TITLE|"
            + "MARKETING_LABEL|ACTUAL_TOTAL_PERFORMANCES|AGGREGATE_TUNING_HOURS|CHANNEL_OR_PROGRAM_NAME|PLAY_FREQUENCY",
          "CKUA   Edmonton|B|Aurora Band|Northern Lights|CAAAA2600001|Borealis|Maple Music|||ckua|3",
          "CKUA   Edmonton|B|Global Star|Summer Hit|USBBB2600002|Hits|Big Label|||ckua|1"))
    try Self.expectGolden(writer.text, "soundexchange.txt")
  }

  @Test("One report per service: only the service's channels, under its name")
  func oneService() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let report = SoundExchangeReport(
      scope: ReportScope(timeZoneOverride: .utc), serviceName: "CKUA2-FM", transmissionCategory: "B",
      audiencePerPlay: nil, channels: ["ckua2"])
    let text = try fixture.csv { try report.write(from: $0, to: $1) }
    let rows = try StrictCSVParser.parse(text).dropFirst()
    #expect(rows.map { [$0[0], $0[3], $0[7], $0[9], $0[10]] } == [["CKUA2-FM", "Northern Lights", "", "ckua2", "1"]])
  }

  @Test("ISRCs are written with no hyphens; one that is not an ISRC is left empty and listed with its item")
  func isrcs() throws {
    var items = ReportFixture.items
    items["dashed"] = ReportFixture.item(
      key: "cat:dashed", title: "Dashes", artist: "Hyphen", isrc: "us-bbb-26-00009", seconds: 100)
    items["broken"] = ReportFixture.item(
      key: "cat:broken", title: "Broken", artist: "Typo", album: "Errata", isrc: "USBBB26000", label: "Misprint",
      seconds: 100)
    let fixture = try ReportFixture(
      [
        .init(channel: "ckua", item: "dashed", start: "2026-02-01T12:00:00Z", seconds: 100),
        .init(channel: "ckua", item: "broken", start: "2026-02-01T13:00:00Z", seconds: 100),
        .init(channel: "ckua", item: "broken", start: "2026-02-01T14:00:00Z", seconds: 100),
      ], items: items)
    defer { fixture.remove() }
    let report = SoundExchangeReport(
      scope: ReportScope(timeZoneOverride: .utc), serviceName: "CKUA", transmissionCategory: "B",
      audiencePerPlay: nil)
    let reader = try PlayLogReader(path: fixture.path)
    let writer = CSVWriter()
    let summary = try report.write(from: reader, to: writer)
    let rows = try StrictCSVParser.parse(writer.text).dropFirst().map { [$0[2], $0[4], $0[5], $0[6], $0[10]] }
    #expect(rows == [["Hyphen", "USBBB2600009", "", "", "1"], ["Typo", "", "Errata", "Misprint", "2"]])
    #expect(summary.invalidISRCs.map { [$0.item.key, $0.isrc] } == [["cat:broken", "USBBB26000"]])
    #expect(ISRC.normalized("USRC17607839") == "USRC17607839")
    #expect(ISRC.normalized("US-RC1-76-07839") == "USRC17607839")
    #expect(ISRC.normalized("1SRC17607839") == nil)
    #expect(ISRC.normalized("USRC1760783X") == nil)
  }

  @Test("A song with neither an ISRC nor both album and label is listed: its row does not identify the recording")
  func unidentifiedRecordings() throws {
    // SoundExchange identifies a sound recording by its ISRC or, if it is unavailable, by the album name and the
    // marketing label together (https://www.soundexchange.com/service-provider/reporting-requirements/).
    var items = ReportFixture.items
    items["bare"] = ReportFixture.item(key: "cat:bare", title: "Bare", artist: "Nobody", seconds: 100)
    items["albumOnly"] = ReportFixture.item(
      key: "cat:albumOnly", title: "Half", artist: "Someone", album: "Album", seconds: 100)
    items["typo"] = ReportFixture.item(
      key: "cat:typo", title: "Typo", artist: "Misprint", isrc: "USBBB26000", seconds: 100)
    items["labelled"] = ReportFixture.item(
      key: "cat:labelled", title: "Whole", artist: "Known", album: "Album", label: "Label", seconds: 100)
    let fixture = try ReportFixture(
      [
        .init(channel: "ckua", item: "bare", start: "2026-02-01T12:00:00Z", seconds: 100),
        .init(channel: "ckua2", item: "bare", start: "2026-02-01T12:30:00Z", seconds: 100),
        .init(channel: "ckua", item: "albumOnly", start: "2026-02-01T13:00:00Z", seconds: 100),
        .init(channel: "ckua", item: "typo", start: "2026-02-01T14:00:00Z", seconds: 100),
        .init(channel: "ckua", item: "labelled", start: "2026-02-01T15:00:00Z", seconds: 100),
      ], items: items)
    defer { fixture.remove() }
    let report = SoundExchangeReport(
      scope: ReportScope(timeZoneOverride: .utc), serviceName: "CKUA", transmissionCategory: "B",
      audiencePerPlay: nil)
    let summary = try report.write(from: try PlayLogReader(path: fixture.path), to: CSVWriter())
    #expect(summary.unidentified.map(\.key).sorted() == ["cat:albumOnly", "cat:bare", "cat:typo"])
  }

  @Test("Performances are the Icecast listeners connected during each play; channels without a figure mean plays")
  func icecastListeners() throws {
    let fixture = try ReportFixture([
      .init(channel: "ckua", item: "north", start: "2026-02-01T12:00:00Z", seconds: 180),
      .init(channel: "ckua", item: "hit", start: "2026-02-01T12:03:00Z", seconds: 200),
      .init(channel: "ckua2", item: "north", start: "2026-02-01T12:00:00Z", seconds: 180),
    ])
    defer { fixture.remove() }
    // Each line is written when the listener leaves, with the seconds it was connected.
    let log = """
      192.0.2.1 - - [01/Feb/2026:07:01:00 -0500] "GET /ckua HTTP/1.1" 200 100 "-" "VLC" 3660
      192.0.2.2 - - [01/Feb/2026:13:00:00 +0000] "GET /ckua?type=.mp3 HTTP/1.1" 200 100 "-" "VLC" 3480
      192.0.2.3 - - [01/Feb/2026:11:59:00 +0000] "GET /ckua HTTP/1.1" 200 100 "-" "VLC" 3540
      192.0.2.4 - - [01/Feb/2026:12:10:00 +0000] "GET /ckua HTTP/1.1" 200 100 "-" "VLC" 60
      192.0.2.5 - - [01/Feb/2026:12:30:00 +0000] "SOURCE /ckua HTTP/1.0" 200 100 "-" "butt" 7200
      192.0.2.6 - - [01/Feb/2026:12:30:00 +0000] "GET /ckua HTTP/1.1" 404 100 "-" "VLC" 7200

      """
    let mounts = try IcecastAccessLog.parse(log, path: "access.log")
    let sessions = try #require(mounts["/ckua"])
    #expect(sessions.count == 4)
    // North, 12:00–12:03: listeners 1 (11:00–12:01) and 2 (12:02–13:00); 3 (11:00–11:59) left before it. Hit,
    // 12:03–12:06:20: listener 2 only; 4 (12:09–12:10) came after it.
    #expect(
      sessions.performances(startMilliseconds: ms("2026-02-01T12:00:00Z"), endMilliseconds: ms("2026-02-01T12:03:00Z"))
        == 2)
    #expect(
      sessions.performances(startMilliseconds: ms("2026-02-01T12:03:00Z"), endMilliseconds: ms("2026-02-01T12:06:20Z"))
        == 1)

    let scope = ReportScope(timeZoneOverride: .utc)
    let both = SoundExchangeReport(
      scope: scope, serviceName: "CKUA", transmissionCategory: "B", audiencePerPlay: nil,
      audience: ["ckua": sessions])
    let reader = try PlayLogReader(path: fixture.path)
    let plays = CSVWriter()
    let playsSummary = try both.write(from: reader, to: plays)
    #expect(!playsSummary.actualPerformances && playsSummary.sources["ckua2"] == .some(nil))
    #expect(try StrictCSVParser.parse(plays.text).dropFirst().allSatisfy { $0[7] == "" && $0[10] != "" })

    let ckua = SoundExchangeReport(
      scope: scope, serviceName: "CKUA", transmissionCategory: "B", audiencePerPlay: nil, channels: ["ckua"],
      audience: ["ckua": sessions])
    let writer = CSVWriter()
    let summary = try ckua.write(from: reader, to: writer)
    #expect(
      summary.actualPerformances && summary.sources["ckua"] == "listeners on /ckua in the Icecast access log access.log"
    )
    let rows = try StrictCSVParser.parse(writer.text)
    #expect(
      rows.dropFirst().map { [$0[3], $0[7], $0[10]] } == [["Northern Lights", "2", ""], ["Summer Hit", "1", ""]])
  }

  @Test("An access log line in another format is refused with its line number")
  func badAccessLog() {
    let error = #expect(throws: DataFileError.self) {
      try IcecastAccessLog.parse(
        "192.0.2.1 - - [01/Feb/2026:07:01:00 -0500] \"GET /a HTTP/1.1\" 200 1 \"-\" \"x\" 6\nnonsense\n",
        path: "access.log")
    }
    #expect(
      error?.line == 2 && error?.description.hasPrefix("access.log:2: no time") == true, "\(String(describing: error))")
  }

  @Test("Hourly audience: each play gets its hour's AQH; plays outside the file's hours are counted apart")
  func hourlyAudience() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let file = """
      channel,hour_start,aqh
      ckua,2026-02-01T07:00:00-05:00,1500
      ckua,2026-02-01T08:00:00-05:00,2500.4
      ckua,2026-02-02T08:00:00-05:00,1000

      """
    let audience = try HourlyAudienceFile.parse(file, path: "aqh.csv")
    let scope = ReportScope(
      from: ReportBound("2026-02-01"), to: ReportBound("2026-03-01"), channelTimeZones: ["ckua": .toronto])
    let report = SoundExchangeReport(
      scope: scope, serviceName: "CKUA", transmissionCategory: "B", audiencePerPlay: nil, channels: ["ckua"],
      audience: ["ckua": try #require(audience["ckua"])])
    let reader = try PlayLogReader(path: fixture.path)
    let writer = CSVWriter()
    let summary = try report.write(from: reader, to: writer)
    // North at 07:00 on the 1st: 1500; at 07:00 on the 2nd the file has no figure. The hit at 08:00: 2500.4.
    let rows = try StrictCSVParser.parse(writer.text).dropFirst().map { [$0[3], $0[7]] }
    #expect(rows == [["Northern Lights", "1500"], ["Summer Hit", "2500"]])
    #expect(summary.playsWithoutFigure == 1 && summary.sources["ckua"] == "hourly audience (AQH) from aqh.csv")

    let bad = #expect(throws: DataFileError.self) {
      try HourlyAudienceFile.parse("channel,hour_start,aqh\nckua,2026-02-01 07:00,10\n", path: "aqh.csv")
    }
    #expect(bad?.line == 2 && bad?.description.contains("hour_start `2026-02-01 07:00`") == true)
    // An audience beyond a billion listeners would add up past an exact performance count; it is refused by line.
    for aqh in ["1e300", "-1", "nan", "many"] {
      let refused = #expect(throws: DataFileError.self) {
        try HourlyAudienceFile.parse("channel,hour_start,aqh\nckua,2026-02-01T07:00:00Z,\(aqh)\n", path: "aqh.csv")
      }
      #expect(refused?.line == 2 && refused?.description.contains("aqh `\(aqh)` is not a number of listeners") == true)
    }
  }

  @Test("An access log and an audience file with CRLF line ends (written on Windows) read every line")
  func crlfDataFiles() throws {
    let log =
      "192.0.2.1 - - [01/Feb/2026:12:10:00 +0000] \"GET /ckua HTTP/1.1\" 200 1 \"-\" \"VLC\" 600\r\n"
      + "192.0.2.2 - - [01/Feb/2026:12:20:00 +0000] \"GET /ckua HTTP/1.1\" 200 1 \"-\" \"VLC\" 600\r\n"
    #expect(try IcecastAccessLog.parse(log, path: "access.log")["/ckua"]?.count == 2)
    let aqh = "channel,hour_start,aqh\r\nckua,2026-02-01T12:00:00Z,100\r\nckua,2026-02-01T13:00:00Z,200\r\n"
    let audience = try #require(try HourlyAudienceFile.parse(aqh, path: "aqh.csv")["ckua"])
    #expect(
      audience.performances(startMilliseconds: ms("2026-02-01T13:05:00Z"), endMilliseconds: ms("2026-02-01T13:08:00Z"))
        == 200)
  }

  @Test("The file name is SoundExchange's: service, first and last day, transmission category")
  func fileName() {
    let first = ISO8601Millis.days(year: 2007, month: 1, day: 15)
    let last = ISO8601Millis.days(year: 2007, month: 1, day: 21)
    #expect(
      SoundExchangeReport.fileName(
        serviceName: "KFAKE", transmissionCategory: "H", firstDay: first, lastDay: last, fileExtension: "txt")
        == "KFAKE20070115_20070121_H.txt")
    #expect(
      SoundExchangeReport.fileName(
        serviceName: "WXYZ-FM / HD2", transmissionCategory: "B", firstDay: first, lastDay: first,
        fileExtension: "csv") == "WXYZ-FMHD220070115_20070115_B.csv")
  }
}

/// Milliseconds since 1970 of an ISO 8601 time.
private func ms(_ text: String) -> Int64 {
  ISO8601Millis.parseMillisecondsSince1970(text)!
}
