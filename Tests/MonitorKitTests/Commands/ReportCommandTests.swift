import Common
import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

@Suite("report command", .enabled(if: CLI.isBuilt, CLI.notBuilt))
struct ReportCommandTests {
  let folder: TemporaryDirectory
  let database: String

  /// A play log with a Toronto channel's plays around local midnight and an ad, and a configuration with the
  /// channel's time zone and the report settings.
  init() throws {
    folder = try TemporaryDirectory(prefix: "report-command")
    database = folder.file("plays.sqlite").path
    let store = try PlayLogStore(path: database)
    func play(
      _ key: String, _ title: String, _ start: String, seconds: Double, kind: ItemKind = .song,
      attributes: [String: String] = [:]
    ) throws {
      let date = try #require(ISO8601Millis.parse(start))
      try store.record(
        PlayRecord(
          channel: "ckua", itemKey: key, title: title, artist: "Artist", isrc: "CA\(key)", kind: kind,
          attributes: attributes, start: date, end: date.addingTimeInterval(seconds), confidence: 0.9,
          detectedAt: date.addingTimeInterval(5), status: .closed))
    }
    try play("north", "Northern Lights", "2026-01-12T12:00:00Z", seconds: 180, attributes: ["mapl": "MAPL"])
    try play("hit", "=Summer Hit", "2026-01-13T04:58:00Z", seconds: 240)
    try play(
      "sale", "Sale", "2026-01-13T15:00:00Z", seconds: 30, kind: .ad,
      attributes: ["advertiser": "Shop", "cart": "Sale"])
    try store.close()
    try Data(
      """
      {channels: [{name: "ckua", source: "jack", timeZone: "America/Toronto"}],
       reports: {soundExchange: {serviceName: "CKUA", transmissionCategory: "B"},
         quotaRules: [{name: "CanCon", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2,
           targetPercent: 35}]}}
      """.utf8
    ).write(to: folder.file("monitor.json5"))
  }

  /// The CRLF-ended records of a report.
  static func records(_ text: String) -> [String] {
    Array(text.components(separatedBy: "\r\n").dropLast())
  }

  func report(_ arguments: [String]) throws -> Subprocess.Result {
    try CLI.run(["report"] + arguments, in: folder.url)
  }

  @Test("report alerts lists the play log's alerts as CSV, in the channel's time zone")
  func alerts() throws {
    let store = try PlayLogStore(path: database)
    let start = try #require(ISO8601Millis.parse("2026-01-13T05:00:00Z"))
    try store.closeAlert(
      channel: "ckua", kind: "silence", start: start, end: start.addingTimeInterval(31.5), detail: "quiet")
    try store.close()
    let result = try report(["alerts", "--db", database, "--config", "monitor.json5", "--from", "2026-01-13"])
    #expect(result.status == 0, "\(result)")
    #expect(
      Self.records(result.stdout) == [
        "channel,kind,start,end,duration_s,detail",
        "ckua,silence,2026-01-13T00:00:00.000-05:00,2026-01-13T00:00:31.500-05:00,31.500,quiet",
      ])
    #expect(result.stderr.contains("report alerts: 1 rows written to stdout"), "\(result)")
  }

  @Test("plays to a file in the channel's time zone from --config; the summary on stderr")
  func playsToFile() throws {
    let out = folder.file("plays.csv").path
    let result = try report(["plays", "--db", database, "--config", "monitor.json5", "--out", out])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("report plays: 3 rows written to \(out)"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    let text = try String(contentsOfFile: out, encoding: .utf8)
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines[0] == PlaysReport.format.header.joined(separator: ","))
    #expect(lines[2].hasPrefix("ckua,2026-01-12T23:58:00.000-05:00,2026-01-13T00:02:00.000-05:00,240.000,'=Summer Hit"))
  }

  @Test(
    "--out on a full disk fails naming the file, leaves the report there before it, and no .partial",
    .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
  func outOnFullDisk() throws {
    let disk = try SmallDisk(in: folder)
    defer { withExtendedLifetime(disk) {} }  // mounted to the end of the test
    let out = disk.file("plays.csv").path
    try Data("yesterday's report\r\n".utf8).write(to: URL(fileURLWithPath: out))
    let filler = try disk.fill()
    let result = try report(["plays", "--db", database, "--config", "monitor.json5", "--out", out])
    #expect(result.status != 0, "\(result)")
    #expect(result.stderr.contains(out), "names the file: \(result)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "yesterday's report\r\n", "the report before it stays")
    #expect(!FileManager.default.fileExists(atPath: out + ".partial"), "no partial file left behind")
    try FileManager.default.removeItem(at: filler)
    #expect(try report(["plays", "--db", database, "--config", "monitor.json5", "--out", out]).status == 0)
    #expect(Self.records(try String(contentsOfFile: out, encoding: .utf8)).count == 4, "with room, the new report")
  }

  @Test("--out into a FIFO writes into it, with no .partial beside it; through a link, the link's file is replaced")
  func outIntoFIFOAndLink() throws {
    let fifo = try FIFOReader(path: folder.file("plays.fifo").path)
    let result = try report(["plays", "--db", database, "--config", "monitor.json5", "--out", fifo.path])
    #expect(result.status == 0, "\(result)")
    let text = try #require(fifo.text(), "the report closed the FIFO")
    #expect(Self.records(text).count == 4, "the header and 3 plays: \(text)")
    #expect(fifo.isFIFO)
    #expect(!FileManager.default.fileExists(atPath: fifo.path + ".partial"))

    let target = folder.file("target.csv").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    let link = folder.file("latest.csv").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    #expect(try report(["plays", "--db", database, "--config", "monitor.json5", "--out", link]).status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "still a link")
    #expect(Self.records(try String(contentsOfFile: target, encoding: .utf8)).count == 4)
  }

  @Test("airplay by local day on stdout; --tz UTC moves the play across midnight to the next day")
  func airplayByDay() throws {
    let local = try report(["airplay", "--db", database, "--config", "monitor.json5", "--group", "day", "--kind", "x"])
    #expect(
      local.status == 64 && local.stderr.contains("--kind is for the proof-of-play and reconcile report"), "\(local)")
    let toronto = try report(["airplay", "--db", database, "--config", "monitor.json5", "--group", "day"])
    #expect(toronto.status == 0, "\(toronto)")
    let days = Self.records(toronto.stdout).dropFirst().map { String($0.prefix(29)) }
    #expect(
      days == ["2026-01-12T00:00:00.000-05:00", "2026-01-12T00:00:00.000-05:00", "2026-01-13T00:00:00.000-05:00"],
      "\(toronto)")
    let utc = try report(["airplay", "--db", database, "--group", "day", "--tz", "UTC"])
    #expect(utc.status == 0, "\(utc)")
    let utcDays = Self.records(utc.stdout).dropFirst().map { String($0.prefix(24)) }
    #expect(utcDays == ["2026-01-12T00:00:00.000Z", "2026-01-13T00:00:00.000Z", "2026-01-13T00:00:00.000Z"])
  }

  @Test("soundexchange as pipe-delimited text, quota and proof-of-play from the configuration's settings")
  func compliance() throws {
    let soundExchange = try report(["soundexchange", "--db", database, "--config", "monitor.json5", "--format", "pipe"])
    #expect(soundExchange.status == 0, "\(soundExchange)")
    // `CAnorth` is not an ISRC: left empty and named on stderr with its item.
    #expect(soundExchange.stdout.contains("CKUA|B|Artist|Northern Lights||||||ckua|1\r\n"), "\(soundExchange)")
    #expect(
      soundExchange.stderr.contains("CKUA: item north (\"Northern Lights\" by Artist) has ISRC \"CAnorth\""),
      "\(soundExchange)")
    #expect(soundExchange.stderr.contains("CKUA: PLAY_FREQUENCY (plays, no audience figure for ckua)"))
    // Nor has it an album or label: its row does not identify the recording, and stderr says so.
    #expect(
      soundExchange.stderr.contains(
        "CKUA: item north (\"Northern Lights\" by Artist) has no valid ISRC, album, label; SoundExchange identifies"),
      "\(soundExchange)")
    // No spreadsheet opens the pipe format: a title that begins with `=` is written as it is.
    #expect(soundExchange.stdout.contains("|=Summer Hit|"), "\(soundExchange)")
    let quota = try report(["quota", "--db", database, "--config", "monitor.json5", "--from", "2026-01-12"])
    #expect(quota.status == 0, "\(quota)")
    #expect(
      Self.records(quota.stdout).last
        == "ckua,CanCon,whole week,2026-01-12T00:00:00.000-05:00,2026-01-19T00:00:00.000-05:00,1,2,0,50.0,35.0,pass")
    let proof = try report(["proof-of-play", "--db", database, "--config", "monitor.json5"])
    #expect(Self.records(proof.stdout).last?.hasPrefix("Shop,ckua,2026-01-13T10:00:00.000-05:00,") == true, "\(proof)")
  }

  @Test("soundexchange: one Report of Use per service, in --out-dir under SoundExchange's names, AQH performances")
  func soundExchangePerService() throws {
    let store = try PlayLogStore(path: database)
    let start = try #require(ISO8601Millis.parse("2026-01-14T12:00:00Z"))
    try store.record(
      PlayRecord(
        channel: "ckua2", itemKey: "second", title: "Second", artist: "Artist", isrc: "ca-aaa-26-00001",
        start: start, end: start.addingTimeInterval(200), confidence: 0.9, detectedAt: start, status: .closed))
    try store.close()
    try Data(
      """
      {channels: [{name: "ckua", source: "jack", timeZone: "America/Toronto"},
                  {name: "ckua2", source: "jack", timeZone: "America/Toronto"}],
       reports: {soundExchange: {serviceName: "CKUA", transmissionCategory: "B",
                                 channels: {ckua2: {serviceName: "CKUA2-FM"}}}}}
      """.utf8
    ).write(to: folder.file("sx.json5"))
    try Data("channel,hour_start,aqh\nckua2,2026-01-14T07:00:00-05:00,300\n".utf8).write(to: folder.file("aqh.csv"))

    try Data("channel,hour_start,aqh\nckua2,07:00,300\n".utf8).write(to: folder.file("bad-aqh.csv"))
    let badAudience = try report([
      "soundexchange", "--db", database, "--config", "sx.json5", "--audience", "bad-aqh.csv",
    ])
    #expect(badAudience.status == 65 && badAudience.stderr.contains("hour_start `07:00`"), "\(badAudience)")

    let oneFile = try report(["soundexchange", "--db", database, "--config", "sx.json5"])
    #expect(oneFile.status == 64 && oneFile.stderr.contains("2 services (CKUA, CKUA2-FM)"), "\(oneFile)")

    let directory = folder.file("rou")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    let result = try report([
      "soundexchange", "--db", database, "--config", "sx.json5", "--from", "2026-01-01", "--to", "2026-02-01",
      "--format", "pipe", "--out-dir", directory.path, "--audience", "aqh.csv",
    ])
    #expect(result.status == 0, "\(result)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        == ["CKUA20260101_20260131_B.txt", "CKUA2-FM20260101_20260131_B.txt"].sorted())
    let second = try String(
      contentsOf: directory.appendingPathComponent("CKUA2-FM20260101_20260131_B.txt"), encoding: .utf8)
    #expect(Self.records(second).last == "CKUA2-FM|B|Artist|Second|CAAAA2600001|||300||ckua2|", "\(second)")
    #expect(
      result.stderr.contains("CKUA2-FM: ACTUAL_TOTAL_PERFORMANCES from hourly audience (AQH) from aqh.csv (ckua2)"),
      "\(result)")
    #expect(result.stderr.contains("CKUA: PLAY_FREQUENCY"), "\(result)")
  }

  @Test("schedule import with --config skips the spots of a channel the configuration lacks (exit 2), naming it")
  func scheduleOfUnknownChannel() throws {
    try Data(
      "channel,scheduled_at,cart,advertiser\nckua,2026-01-13 10:00:00,Sale,Shop\nCKUA ,2026-01-13 11:00:00,Sale,Shop\n"
        .utf8
    ).write(to: folder.file("traffic.csv"))
    let imported = try CLI.run(
      ["schedule", "import", "--db", database, "--config", "monitor.json5", "traffic.csv"], in: folder.url)
    #expect(imported.status == 2, "\(imported)")
    #expect(
      imported.stderr.contains(
        "skipped 1 spots of channel \"CKUA\", which monitor.json5 does not have (did you mean "
          + "\"ckua\"?)"), "\(imported)")
    #expect(imported.stderr.contains("1 scheduled spots from traffic.csv"), "\(imported)")
    let result = try report(["reconcile", "--db", database, "--config", "monitor.json5"])
    #expect(Self.records(result.stdout).dropFirst().count == 1, "\(result)")
  }

  @Test(
    "schedule import --replace replaces the days the corrected log covers: a moved spot is not left behind as missed"
  )
  func scheduleReplaced() throws {
    let log =
      "channel;scheduled_at;cart;advertiser\nckua;2026-01-13 10:00:00;Sale;Shop\nckua;2026-01-13 11:00:00;C9999;Shop\n"
      + "ckua;2026-01-14 10:00:00;Sale;Shop\n"
    try Data(log.utf8).write(to: folder.file("traffic.csv"))
    let first = try CLI.run(
      ["schedule", "import", "--db", database, "--config", "monitor.json5", "traffic.csv"], in: folder.url)
    #expect(first.status == 0, "\(first)")
    // The corrected log of the 13th: the 11:00 spot dropped. The 14th is not in it and keeps its spot.
    try Data("channel;scheduled_at;cart;advertiser\nckua;2026-01-13 10:00:00;Sale;Shop\n".utf8).write(
      to: folder.file("fixed.csv"))
    let replaced = try CLI.run(
      ["schedule", "import", "--db", database, "--config", "monitor.json5", "--replace", "fixed.csv"], in: folder.url)
    #expect(replaced.status == 0, "\(replaced)")
    #expect(replaced.stderr.contains("replaced the schedule of 1 channel-days (--replace: ckua)"), "\(replaced)")
    let result = try report(["reconcile", "--db", database, "--config", "monitor.json5"])
    let scheduled = Self.records(result.stdout).dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false)[4]
    }
    #expect(scheduled == ["2026-01-13T10:00:00.000-05:00", "2026-01-14T10:00:00.000-05:00"], "\(result.stdout)")

    let typo = try CLI.run(["schedule", "import", "--db", "plays.sqlit", "fixed.csv"], in: folder.url)
    #expect(typo.status == 64 && typo.stderr.contains("--db plays.sqlit: no such play log"), "\(typo)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("plays.sqlit").path))
  }

  @Test("schedule import of a spot again with its cart in another case replaces it, spelled as the later log has it")
  func scheduleCartInAnotherCase() throws {
    try Data("channel;scheduled_at;cart;advertiser\nckua;2026-01-13 10:00:00;Sale;Shop\n".utf8).write(
      to: folder.file("traffic.csv"))
    try Data(
      "channel;scheduled_at;cart;advertiser\nckua;2026-01-13 10:00:00;SALE;Shop & Co\nckua;2026-01-13 11:00:00;sale;Shop\n"
        .utf8
    ).write(to: folder.file("again.csv"))
    for file in ["traffic.csv", "again.csv"] {
      let imported = try CLI.run(
        ["schedule", "import", "--db", database, "--config", "monitor.json5", file], in: folder.url)
      #expect(imported.status == 0, "\(imported)")
    }
    let result = try report(["reconcile", "--db", database, "--config", "monitor.json5"])
    // channel, cart, advertiser, scheduled_at
    let rows = Self.records(result.stdout).dropFirst().map {
      let fields = $0.split(separator: ",", omittingEmptySubsequences: false)
      return [fields[0], fields[1], fields[2], fields[4]].joined(separator: ",")
    }
    #expect(
      rows == ["ckua,SALE,Shop & Co,2026-01-13T10:00:00.000-05:00", "ckua,sale,Shop,2026-01-13T11:00:00.000-05:00"],
      "\(result.stdout)")
  }

  @Test("schedule import then report reconcile: the ad aired as scheduled, a missed spot, local traffic times")
  func scheduleAndReconcile() throws {
    try Data(
      """
      channel;scheduled_at;cart;advertiser;title;length_s
      ckua;2026-01-13 10:00:00;Sale;Shop;Sale 30;0:30
      ckua;2026-01-13 11:00:00;Sale;Shop;Sale 30;0:30

      """.utf8
    ).write(to: folder.file("traffic.csv"))
    let imported = try CLI.run(
      ["schedule", "import", "--db", database, "--config", "monitor.json5", "traffic.csv"], in: folder.url)
    #expect(imported.status == 0 && imported.stderr.contains("2 scheduled spots from traffic.csv"), "\(imported)")
    let bad = try CLI.run(["schedule", "import", "--db", database, "monitor.json5"], in: folder.url)
    #expect(bad.status == 65 && bad.stderr.contains("monitor.json5:1: the header has no channel column"), "\(bad)")

    let result = try report(["reconcile", "--db", database, "--config", "monitor.json5", "--tolerance", "30"])
    #expect(result.status == 0, "\(result)")
    #expect(
      Self.records(result.stdout).dropFirst()
        == [
          "ckua,Sale,Shop,Sale 30,2026-01-13T10:00:00.000-05:00,2026-01-13T10:00:00.000-05:00,"
            + "2026-01-13T10:00:30.000-05:00,0.000,aired,ckua",
          "ckua,Sale,Shop,Sale 30,2026-01-13T11:00:00.000-05:00,,,,missed,",
        ], "\(result)")
  }

  @Test("soundexchange on a play log without plays writes the header alone")
  func soundExchangeEmpty() throws {
    let empty = folder.file("empty.sqlite").path
    try PlayLogStore(path: empty).close()
    let result = try report(["soundexchange", "--db", empty, "--config", "monitor.json5"])
    #expect(result.status == 0, "\(result)")
    #expect(
      Self.records(result.stdout) == [SoundExchangeReport.header.joined(separator: ",")])
  }

  @Test("quota warns about a rule's channel the play log does not have, and runs the rule on no other")
  func quotaRuleChannels() throws {
    try Data(
      """
      {channels: [{name: "ckua", source: "jack", timeZone: "America/Toronto"}],
       reports: {quotaRules: [{name: "FR", attribute: "language", qualifyingValues: ["fr"], targetPercent: 40,
         channels: ["cbc"]}]}}
      """.utf8
    ).write(to: folder.file("cbc.json5"))
    let quota = try report(["quota", "--db", database, "--config", "cbc.json5"])
    #expect(quota.status == 0, "\(quota)")
    #expect(quota.stderr.contains("rule \"FR\" names channel \"cbc\", which the play log does not have"), "\(quota)")
    #expect(Self.records(quota.stdout).count == 1, "the header only: \(quota)")
  }

  @Test("Usage errors exit 64 and name the problem; a bad configuration exits 78 with its key path")
  func errors() throws {
    let noKind = try report(["--db", database])
    #expect(noKind.status == 64 && noKind.stderr.contains("name one report kind"))
    let badDate = try report(["plays", "--db", database, "--from", "12/01/2026"])
    #expect(badDate.status == 64 && badDate.stderr.contains("--from 12/01/2026"))
    // Found by the HTTP API's fuzzer: a bound thousands of years away took 16 s (the calendar reads the zone's offsets
    // hour by hour across the span); it is refused before the play log is opened, so before any of that is computed.
    for (option, value) in [("--from", "9513-11-29"), ("--to", "9999-12-31T00:00:00Z"), ("--from", "0001-01-01")] {
      let farAway = try report(["plays", "--db", folder.file("none.sqlite").path, "--tz", "UTC", option, value])
      #expect(
        farAway.status == 64 && farAway.stderr.contains("\(option) \(value): give a time in the years 1900 to 2199"),
        "\(farAway)")
    }
    // Found by the HTTP API's fuzzer: a tolerance of 10^90 seconds trapped converting to milliseconds.
    for tolerance in ["6066666666666666666666666666", "3600.5", "-1", "nan", "inf", "soon"] {
      let bad = try report(["reconcile", "--db", database, "--tolerance", tolerance])
      #expect(
        bad.status == 64 && bad.stderr.contains("--tolerance \(tolerance): give seconds from 0 to 3600"), "\(bad)")
    }
    let badZone = try report(["plays", "--db", database, "--tz", "Mars/Olympus"])
    #expect(badZone.status == 64 && badZone.stderr.contains("unknown time zone"))
    let badKind = try report(["proof-of-play", "--db", database, "--kind", "advert"])
    #expect(badKind.status == 64 && badKind.stderr.contains("--kind advert: use song, ad, jingle, other"), "\(badKind)")
    let noChannel = try report(["plays", "--db", database, "--channel", "cbc"])
    #expect(noChannel.status == 64 && noChannel.stderr.contains("has no channel \"cbc\"; it has ckua"))
    let noSettings = try report(["soundexchange", "--db", database])
    #expect(noSettings.status == 64 && noSettings.stderr.contains("reports.soundExchange"))
    let missing = try report(["plays", "--db", folder.file("none.sqlite").path])
    #expect(missing.status == 1 && missing.stderr.contains("none.sqlite: no such file"), "\(missing)")
    try Data("{reports: {quotaRules: [{name: \"q\"}]}}".utf8).write(to: folder.file("bad.json5"))
    let badConfig = try report(["quota", "--db", database, "--config", "bad.json5"])
    #expect(badConfig.status == 78 && badConfig.stderr.contains("bad.json5: reports.quotaRules[0]"), "\(badConfig)")
  }
}
