import Common
import Foundation
import Reports

// `Benchmarks reports FOLDER [--channels N] [--days N] [--runs N] [--year-runs N] [--inserts N] [--reports-only]
// [--postgresql URL [--postgresql-copied]]`: the play log and report figures of issue 4.
//
// 1. Generates a year of plays for 50 channels (about 5 million rows) into FOLDER/year.sqlite, once (it is kept
//    and reused while its channel and day counts match). The rows go through the production store: the same
//    checks and SQL as the monitor's `PlayLogStore.record`, but one transaction per day of all channels
//    (`record(contentsOf:)`), not one synced transaction per play: a year of synced single-play commits would take
//    hours. Half the channels are in America/Toronto, half in Europe/Paris; songs carry `mapl` and `language`
//    attributes, ads an `advertiser` and a `cart`, and each day's ads a traffic schedule (`schedule(of:)`).
// 2. Times each report, as `broadcast-monitor report` runs it, writing CSV to a file: for one channel and one month
//    (median of RUNS, goal < 1 s) and for all channels and the whole year (median of YEAR-RUNS, default one run,
//    goal < 30 s). With `--postgresql URL`, the same reports from the same plays copied into that database (each
//    report with its own snapshot, as `report --db postgresql://…` runs it); `--postgresql-copied` says the
//    database holds them already (a second run on the same server), so the copy is not made again.
// 3. Insert throughput with the production durability (WAL, synchronous=FULL, one transaction per play as the
//    monitor's writer does), into a fresh file in FOLDER: plays recorded and updated per second, commit latency.
// 4. The writer's commit latency while a whole-year report reads the same file.
// `--reports-only` stops after 2.

/// SplitMix64: the same plays on every run.
private struct Generator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The catalog the generated plays come from.
private struct BenchCatalog {
  var songs: [PlayRecord] = []
  var ads: [PlayRecord] = []
  var jingles: [PlayRecord] = []

  init(random: inout Generator) {
    let mapl = ["MAPL", "MA", "AP", "A", "", "", "", "L"]
    for index in 1...4000 {
      songs.append(
        Self.item(
          key: String(format: "song-%04d", index), title: "Song \(index)", artist: "Artist \(index % 900)",
          album: "Album \(index % 1500)", isrc: String(format: "ZZBM%08d", index), label: "Label \(index % 60)",
          kind: .song,
          attributes: [
            "mapl": mapl[Int.random(in: 0..<mapl.count, using: &random)],
            "language": Bool.random(using: &random) ? "fr" : "en",
          ], seconds: Double(Int.random(in: 150...330, using: &random))))
    }
    for index in 1...200 {
      ads.append(
        Self.item(
          key: String(format: "ad-%03d", index), title: "Spot \(index)", kind: .ad,
          attributes: ["advertiser": "Advertiser \(index % 40)", "cart": String(format: "C%04d", index)],
          seconds: [15, 30, 30, 60][index % 4]))
    }
    for index in 1...10 {
      jingles.append(
        Self.item(key: "jingle-\(index)", title: "Jingle \(index)", kind: .jingle, attributes: [:], seconds: 5))
    }
  }

  static func item(
    key: String, title: String, artist: String = "", album: String = "", isrc: String = "", label: String = "",
    kind: ItemKind, attributes: [String: String], seconds: Double
  ) -> PlayRecord {
    PlayRecord(
      channel: "", itemKey: key, title: title, artist: artist, album: album, isrc: isrc, label: label, kind: kind,
      attributes: attributes, itemDurationSeconds: seconds, start: Date(), end: Date(), confidence: 0.9,
      detectedAt: Date(), status: .closed)
  }
}

/// One channel's program: three songs with talk between them, then an ad break (two spots and a jingle) and the
/// news; about 290 s per play on average.
private struct ChannelProgram {
  var name: String
  var nextMilliseconds: Int64
  var position = 0

  mutating func plays(until end: Int64, catalog: BenchCatalog, random: inout Generator) -> [PlayRecord] {
    var plays: [PlayRecord] = []
    while nextMilliseconds < end {
      var play: PlayRecord
      var gapSeconds: Int
      switch position % 6 {
      case 0, 1, 2:
        play = catalog.songs[Int.random(in: 0..<catalog.songs.count, using: &random)]
        gapSeconds = Int.random(in: 0...240, using: &random)
      case 3, 4:
        play = catalog.ads[Int.random(in: 0..<catalog.ads.count, using: &random)]
        gapSeconds = 0
      default:
        play = catalog.jingles[Int.random(in: 0..<catalog.jingles.count, using: &random)]
        gapSeconds = Int.random(in: 300...900, using: &random)
      }
      let length = Int64((play.itemDurationSeconds ?? 180) * 1000) - Int64.random(in: 0...3000, using: &random)
      play.channel = name
      play.start = Date(ms: nextMilliseconds)
      play.end = Date(ms: nextMilliseconds + length)
      play.detectedAt = Date(ms: nextMilliseconds + 6_000)
      play.refOffsetSeconds = 0
      play.speed = [1, 1, 1.02, 0.98][position % 4]
      plays.append(play)
      nextMilliseconds += length + Int64(gapSeconds) * 1000
      position += 1
    }
    return plays
  }
}

private let yearStart: Int64 = 1_735_689_600_000  // 2025-01-01T00:00:00Z
private let dayMilliseconds: Int64 = 86_400_000

private func zone(ofChannel index: Int) -> TimeZone {
  TimeZone(identifier: index % 2 == 0 ? "America/Toronto" : "Europe/Paris")!
}

private func channelName(_ index: Int) -> String { String(format: "ch%02d", index + 1) }

/// Generates the year into `path` unless a file made with the same sizes is there.
private func generate(path: String, channels: Int, days: Int) throws {
  let marker = path + ".generated"
  let expected = "channels=\(channels) days=\(days) v2"
  if FileManager.default.fileExists(atPath: path),
    (try? String(contentsOfFile: marker, encoding: .utf8)) == expected
  {
    say("reports: reusing \(path) (\(expected))")
    // Bring its schema up to date (new indexes), as the monitor does when it starts.
    let added = try timed { try PlayLogStore(path: path).close() }
    if added > 1 { say(String(format: "reports: schema brought up to date in %.1f s", added)) }
    return
  }
  for suffix in ["", "-wal", "-shm", ".generated"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  var random = Generator(state: 2026)
  let catalog = BenchCatalog(random: &random)
  var programs = (0..<channels).map {
    ChannelProgram(name: channelName($0), nextMilliseconds: yearStart + Int64($0) * 37_000)
  }
  let store = try PlayLogStore(path: path)
  let started = Date()
  var rows = 0
  for day in 0..<days {
    let end = yearStart + Int64(day + 1) * dayMilliseconds
    var batch: [PlayRecord] = []
    for index in programs.indices {
      batch += programs[index].plays(until: end, catalog: catalog, random: &random)
    }
    batch.sort { $0.start < $1.start }
    try store.record(contentsOf: batch)
    _ = try store.importSchedule(schedule(of: batch))
    rows += batch.count
    if day % 30 == 29 || day == days - 1 {
      let elapsed = Date().timeIntervalSince(started)
      say(
        String(
          format: "reports: generated %d days, %d plays, %.0f s (%.0f plays/s in day batches)", day + 1, rows,
          elapsed, Double(rows) / elapsed))
    }
  }
  try store.close()
  try expected.write(toFile: marker, atomically: true, encoding: .utf8)
  let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  say(String(format: "reports: %d plays in %@, %.0f MB", rows, path, Double(size) / 1e6))
}

/// The traffic schedule the day's ads aired from, for `reconcile`: each ad scheduled at the minute it started (so
/// within the 60 s tolerance), except every 50th, which aired unscheduled; every 97th also has a second spot of the
/// same cart 20 minutes later, which did not air (missed).
private func schedule(of batch: [PlayRecord]) -> [ScheduledSpot] {
  var spots: [ScheduledSpot] = []
  var ads = 0
  for play in batch where play.metadata.kind == .ad {
    ads += 1
    guard ads % 50 != 0, let cart = play.metadata.attributes["cart"] else { continue }
    let minute = Int64((play.start.timeIntervalSince1970 / 60).rounded(.down)) * 60_000
    let length = play.itemDurationSeconds.map { Int64($0 * 1000) }
    spots.append(
      ScheduledSpot(
        channel: play.channel, scheduledAtMilliseconds: minute, cart: cart,
        advertiser: play.metadata.attributes["advertiser"] ?? "", title: play.metadata.title, lengthMilliseconds: length
      ))
    if ads % 97 == 0 {
      spots.append(
        ScheduledSpot(
          channel: play.channel, scheduledAtMilliseconds: minute + 1_200_000, cart: cart,
          advertiser: play.metadata.attributes["advertiser"] ?? "", title: play.metadata.title,
          lengthMilliseconds: length))
    }
  }
  return spots
}

private func timed(_ body: () throws -> Void) rethrows -> Double {
  let start = Date()
  try body()
  return Date().timeIntervalSince(start)
}

/// Runs one report into `file` as CSV; returns the rows written (without the header).
private func runReport(
  _ kind: String, path: String, scope: ReportScope, file: String, pipe: Bool = false
) throws -> Int {
  _ = FileManager.default.createFile(atPath: file, contents: nil)
  let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
  defer { try? handle.close() }
  let reader = try PlayLogReader(path: path)
  // One of the two writes the report; the other stays empty.
  let csv = CSVWriter(fileHandle: handle, destination: file)
  let pipeWriter = PipeDelimitedWriter(fileHandle: handle, destination: file)
  let counter = CountingRowSink(pipe ? pipeWriter : csv)
  let crtc = QuotaRule(
    name: "CRTC Canadian content", attribute: "mapl", flags: ["M", "A", "P", "L"], minimumFlags: 2,
    targetPercent: 35,
    dayParts: [
      DayPart(name: "broadcast week", startMinute: 360, endMinute: 1440),
      DayPart(name: "Mon-Fri 6-18", weekdays: Set(0...4), startMinute: 360, endMinute: 1080),
    ])
  let france = QuotaRule(
    name: "France 40% francophone", attribute: "language", qualifyingValues: ["fr"], targetPercent: 40)
  switch kind {
  case "plays": try PlaysReport(scope: scope).write(from: reader, to: counter)
  case "airplay": try AirplayReport(scope: scope, byChannel: true, grouping: .month).write(from: reader, to: counter)
  case "soundexchange":
    try SoundExchangeReport(
      scope: scope, serviceName: "Bench FM", transmissionCategory: "B", audiencePerPlay: 1200
    ).write(from: reader, to: counter)
  case "quota": try QuotaReport(scope: scope, rules: [crtc, france]).write(from: reader, to: counter)
  case "reconcile": try ReconcileReport(scope: scope).write(from: reader, to: counter)
  default: try ProofOfPlayReport(scope: scope).write(from: reader, to: counter)
  }
  try csv.flush()
  try pipeWriter.flush()
  return counter.rows - 1
}

private func percentile(_ values: [Double], _ fraction: Double) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

/// Records and updates plays one synced transaction each, as the monitor's writer does.
private func benchInserts(folder: String, count: Int) throws {
  let path = folder + "/inserts.sqlite"
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  let store = try PlayLogStore(path: path)
  var random = Generator(state: 7)
  let catalog = BenchCatalog(random: &random)
  var latencies: [Double] = []
  var ids: [Int64] = []
  let recordTime = try timed {
    for index in 0..<count {
      var play = catalog.songs[index % catalog.songs.count]
      play.channel = channelName(index % 50)
      play.start = Date(ms: yearStart + Int64(index) * 1000)
      play.end = play.start.addingTimeInterval(10)
      play.detectedAt = play.start.addingTimeInterval(6)
      play.status = .open
      let start = Date()
      ids.append(try store.record(play))
      latencies.append(Date().timeIntervalSince(start) * 1000)
    }
  }
  say(
    String(
      format: "inserts: %d plays recorded, one synced transaction each (WAL, synchronous=FULL): %.0f plays/s, "
        + "commit median %.2f ms, p99 %.2f ms", count, Double(count) / recordTime, percentile(latencies, 0.5),
      percentile(latencies, 0.99)))
  latencies.removeAll()
  let updateTime = try timed {
    for (index, id) in ids.enumerated() {
      let start = Date()
      try store.update(
        playID: id, end: Date(ms: yearStart + Int64(index) * 1000 + 20_000), refOffsetSeconds: 0,
        speed: 1, confidence: 0.95, status: .closed)
      latencies.append(Date().timeIntervalSince(start) * 1000)
    }
  }
  say(
    String(
      format: "inserts: %d plays updated (end moved, closed): %.0f updates/s, median %.2f ms, p99 %.2f ms", count,
      Double(count) / updateTime, percentile(latencies, 0.5), percentile(latencies, 0.99)))
  try store.close()
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// The writer's commit latency while a whole-year plays report reads the same file.
private func benchWriterDuringReport(path: String, folder: String, scope: ReportScope) throws {
  final class Latencies: @unchecked Sendable {
    let lock = NSLock()
    var values: [Double] = []
    var failure: String?
  }
  let latencies = Latencies()
  let stop = DispatchSemaphore(value: 0)
  let done = DispatchSemaphore(value: 0)
  let writer = Thread {
    do {
      let store = try PlayLogStore(path: path)
      var next = Int64(1_893_456_000_000)  // 2030: outside the year the report reads
      var ids: [Int64] = []
      while stop.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
        let play = PlayRecord(
          channel: "ch01", itemKey: "song-0001", title: "Song 1", kind: .song,
          start: Date(ms: next), end: Date(ms: next + 1000), confidence: 0.9,
          detectedAt: Date(ms: next), status: .closed)
        let start = Date()
        ids.append(try store.record(play))
        let elapsed = Date().timeIntervalSince(start) * 1000
        latencies.lock.withLock { latencies.values.append(elapsed) }
        next += 1000
      }
      // Leave the generated year as it was.
      for id in ids { try store.retract(playID: id) }
      try store.close()
    } catch {
      latencies.lock.withLock { latencies.failure = "\(error)" }
    }
    done.signal()
  }
  writer.start()
  Thread.sleep(forTimeInterval: 1)
  let idle = latencies.lock.withLock { latencies.values }
  let reportTime = try timed {
    _ = try runReport("plays", path: path, scope: scope, file: folder + "/during.csv")
  }
  let during = latencies.lock.withLock { Array(latencies.values.dropFirst(idle.count)) }
  stop.signal()
  done.wait()
  try? FileManager.default.removeItem(atPath: folder + "/during.csv")
  if let failure = latencies.failure { say("writer during report: FAILED: \(failure)") }
  say(
    String(
      format: "writer during report: %d commits while a %.1f s whole-year plays report read the file: median %.2f ms, "
        + "max %.2f ms (before it: median %.2f ms, max %.2f ms over %d commits)", during.count, reportTime,
      percentile(during, 0.5), during.max() ?? 0, percentile(idle, 0.5), idle.max() ?? 0, idle.count))
}

func benchReports(_ arguments: [String]) throws {
  guard let folder = arguments.first else {
    say(
      "usage: Benchmarks reports FOLDER [--channels N] [--days N] [--runs N] [--year-runs N] [--inserts N] "
        + "[--reports-only] [--postgresql URL [--postgresql-copied]]")
    exit(64)
  }
  func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return fallback }
    return Int(arguments[index + 1]) ?? fallback
  }
  let channels = option("channels", 50)
  let days = option("days", 365)
  let runs = option("runs", 3)
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let path = folder + "/year.sqlite"
  try generate(path: path, channels: channels, days: days)

  var zones: [String: TimeZone] = [:]
  for index in 0..<channels { zones[channelName(index)] = zone(ofChannel: index) }
  let kinds =
    arguments.firstIndex(of: "--kinds").map { arguments[$0 + 1].split(separator: ",").map(String.init) }
    ?? ["plays", "airplay", "soundexchange", "quota", "proof-of-play", "reconcile"]

  // One channel, one month: June in Toronto, or the log's last whole month when it is shorter (January to May).
  // (The day each month of 2025 ends, January to June; a day more for Toronto's evening.)
  let monthIndex = [31, 59, 90, 120, 151, 181].lastIndex { $0 + 1 <= days } ?? 0
  let month = ReportScope(
    channelName: "ch01", from: ReportBound(String(format: "2025-%02d-01", monthIndex + 1)),
    to: ReportBound(String(format: "2025-%02d-01", monthIndex + 2)), channelTimeZones: zones)
  var monthWorst = 0.0
  for kind in kinds {
    var times: [Double] = []
    var rows = 0
    for _ in 1...max(runs, 1) {
      times.append(try timed { rows = try runReport(kind, path: path, scope: month, file: folder + "/month.csv") })
    }
    monthWorst = max(monthWorst, median(times))
    say(
      String(
        format: "report %@, one channel, one month: median %.3f s of %d runs, %d rows (goal < 1 s)", kind,
        median(times), times.count, rows))
  }

  // All channels, the whole year.
  let year = ReportScope(channelTimeZones: zones)
  let yearRuns = max(option("year-runs", 1), 1)
  var yearWorst = 0.0
  for kind in kinds {
    var rows = 0
    let file = folder + "/year-\(kind).csv"
    var times: [Double] = []
    for _ in 1...yearRuns {
      times.append(try timed { rows = try runReport(kind, path: path, scope: year, file: file) })
    }
    let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    yearWorst = max(yearWorst, median(times))
    say(
      String(
        format: "report %@, all %d channels, whole log: median %.2f s of %d runs, %d rows, %.1f MB (goal < 30 s)",
        kind, channels, median(times), times.count, rows, Double(size) / 1e6))
    try? FileManager.default.removeItem(atPath: file)
  }
  try? FileManager.default.removeItem(atPath: folder + "/month.csv")
  say(
    String(
      format: "reports: slowest one-channel month %.3f s (goal < 1 s), slowest all-channel year %.2f s (goal < 30 s)",
      monthWorst, yearWorst))

  if let index = arguments.firstIndex(of: "--postgresql"), index + 1 < arguments.count {
    try benchPostgreSQLReports(
      url: arguments[index + 1], path: path, folder: folder, kinds: kinds, month: (month, runs),
      year: (year, yearRuns), channels: channels, isCopied: arguments.contains("--postgresql-copied"))
  }
  if arguments.contains("--reports-only") { return }

  try benchInserts(folder: folder, count: option("inserts", 2000))
  let yearBounds = ReportScope(
    from: ReportBound("2025-01-01T00:00:00Z"), to: ReportBound("2026-01-01T00:00:00Z"), channelTimeZones: zones)
  try benchWriterDuringReport(path: path, folder: folder, scope: yearBounds)
}

extension Date {
  /// The date `ms` milliseconds after 1970 (the play log's unit).
  fileprivate init(ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
}

/// Prints a line at once, also when stdout is a file (bench/reports.sh tees it).
private func say(_ line: String) {
  print(line)
  fflush(nil)
}

/// The same reports from the same plays in PostgreSQL (copied there with `db copy`'s code unless `isCopied`), each
/// with its own snapshot of the play log, as `report --db postgresql://…` runs it: the month copies the plays around
/// its span, the whole year copies everything. Each report runs as many times as its scope says; the figures are
/// medians.
private func benchPostgreSQLReports(
  url: String, path: String, folder: String, kinds: [String], month: (ReportScope, Int), year: (ReportScope, Int),
  channels: Int, isCopied: Bool
) throws {
  if !isCopied {
    var summary: PlayLogCopy.Summary?
    let copyTime = try timed { summary = try PlayLogCopy.copy(sqlite: path, toPostgreSQL: url) }
    guard let summary else { return }
    let copied = summary.copiedRows.values.reduce(0, +)
    say(
      String(
        format: "postgresql: db copy of %d rows in %.1f s (%.0f rows/s, verified: %@)", copied, copyTime,
        Double(copied) / copyTime, summary.isVerified ? "yes" : "NO"))
  }
  for ((scope, runs), label) in [(month, "one channel, one month"), (year, "all \(channels) channels, whole log")] {
    for kind in kinds {
      var rows = 0
      var times: [Double] = []
      var snapshotTimes: [Double] = []
      var snapshotCPUs: [Double] = []
      let file = folder + "/postgresql-\(kind).csv"
      for _ in 1...max(runs, 1) {
        times.append(
          try timed {
            var snapshot: PostgreSQLPlayLogSnapshot?
            let cpuBefore = processCPUSeconds()
            snapshotTimes.append(
              try timed {
                snapshot = try PostgreSQLPlayLogSnapshot(url: url, scope: scope, tables: ReportTables.read(by: kind))
              })
            snapshotCPUs.append(processCPUSeconds() - cpuBefore)
            rows = try runReport(kind, path: snapshot!.path, scope: scope, file: file)
          })
      }
      // The CPU time is this process's (the copy's parsing and SQLite work), which a loaded machine does not
      // stretch as it stretches the wall-clock time; the server's side is not in it.
      say(
        String(
          format: "postgresql: report %@, %@: median %.2f s of %d runs (snapshot %.2f s, %.2f s CPU), %d rows", kind,
          label, median(times), times.count, median(snapshotTimes), median(snapshotCPUs), rows))
      try? FileManager.default.removeItem(atPath: file)
    }
  }
}

/// The CPU time (user and system) this process has used so far, in seconds.
private func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
