import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `report reconcile` end to end on air the monitor heard: spots made from the music fixtures are added to a catalog
/// with their carts, two channels of air are built from them with a known truth (every status present), scanned into
/// a play log, the traffic schedule imported, and every row of the report checked against the status the truth
/// gives. `bench/reconcile_day.py` does the same on the yardstick's simulated radio (its ads, three hours).
@Suite(
  "report reconcile on scanned air", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct ReportCommandReconcileTests {
  /// A spot: its cart, its audio (mono, 8 kHz) and where it aired, by the truth.
  struct Spot {
    var cart: String
    var samples: [Float]
    /// The channel it aired on and its first second there; nil when it never aired.
    var aired: (channel: String, startSeconds: Double)? = nil
    /// The seconds of it that aired (all of it unless cut).
    var airedSeconds: Double? = nil
    var seconds: Double { Double(samples.count) / 8000 }
  }

  /// 2026-01-01T00:00:00Z, when both channels' air begins.
  static let origin: Int64 = 1_767_225_600_000

  @Test("Every status from scanned air: aired, late, early, partial (a cut spot), missed, wrong-channel, unscheduled")
  func everyStatus() throws {
    let folder = try TemporaryDirectory(prefix: "cli-reconcile")
    let a = try CLI.decode("catalog-a.ogg")
    let b = try CLI.decode("catalog-b.ogg")
    let c = try CLI.decode("catalog-c.ogg")
    let unknown = try CLI.decode("unknown.ogg")
    // Seven distinct spots: the three songs, the same played backwards (other audio to the matcher), the unknown.
    var spots = [
      Spot(cart: "A-ON-TIME", samples: a), Spot(cart: "B-LATE", samples: b), Spot(cart: "C-EARLY", samples: c),
      Spot(cart: "D-CUT", samples: a.reversed()), Spot(cart: "E-NOT-AIRED", samples: b.reversed()),
      Spot(cart: "F-OTHER-CHANNEL", samples: c.reversed()), Spot(cart: "G-UNSCHEDULED", samples: unknown),
    ]
    let silence = [Float](repeating: 0, count: 10 * 8000)
    /// Air of `parts` (spot index and the seconds of it that air, nil for all), each after 10 s of silence.
    func air(_ channel: String, _ parts: [(spot: Int, seconds: Double?)]) throws -> URL {
      var samples: [Float] = []
      for part in parts {
        samples += silence
        let spot = spots[part.spot]
        spots[part.spot].aired = (channel, Double(samples.count) / 8000)
        spots[part.spot].airedSeconds = part.seconds ?? spot.seconds
        samples += spot.samples.prefix(Int((part.seconds ?? spot.seconds) * 8000))
      }
      samples += silence
      let url = folder.file("\(channel).wav")
      try WAVWriter.write(samples, sampleRate: 8000, to: url)
      return url
    }
    let fm1 = try air("fm1", [(0, nil), (1, nil), (2, nil), (3, 12)])
    let fm2 = try air("fm2", [(5, nil), (6, nil)])

    var metadata = "path,title,kind,cart,advertiser\n"
    for spot in spots {
      try WAVWriter.write(spot.samples, sampleRate: 8000, to: folder.file("\(spot.cart).wav"))
      metadata += "\(spot.cart).wav,Spot \(spot.cart),ad,\(spot.cart),Shop\n"
    }
    try Data(metadata.utf8).write(to: folder.file("spots.csv"))
    let catalog = folder.file("spots.bmcat").path
    let added = try CLI.run(["catalog", "add", "--catalog", catalog, "--metadata", folder.file("spots.csv").path])
    try #require(added.status == 0, "\(added)")
    let database = folder.file("plays.sqlite").path
    for (channel, url) in [("fm1", fm1), ("fm2", fm2)] {
      let scanned = try CLI.run([
        "scan", "--catalog", catalog, "--channel", channel, "--db", database, "--start", "2026-01-01T00:00:00Z",
        url.path,
      ])
      try #require(scanned.status == 0, "\(scanned)")
    }

    // The schedule: on time (20 s after it aired), 200 s before and after, the cut and the never-aired spot at
    // their time, the spot that aired on fm2 scheduled on fm1; the unscheduled one left out.
    func at(_ spot: Int, _ offsetSeconds: Double) -> Int64 {
      Self.origin + Int64(((spots[spot].aired?.startSeconds ?? 200) + offsetSeconds) * 1000)
    }
    let schedule: [(channel: String, spot: Int, atMilliseconds: Int64)] = [
      ("fm1", 0, at(0, 20)), ("fm1", 1, at(1, -200)), ("fm1", 2, at(2, 200)), ("fm1", 3, at(3, 0)),
      ("fm1", 4, at(4, 0)), ("fm1", 5, at(5, 0)),
    ]
    var traffic = "channel,scheduled_at,cart,advertiser,title,length_s\n"
    for entry in schedule {
      let spot = spots[entry.spot]
      traffic +=
        "\(entry.channel),\(ISO8601Millis.format(millisecondsSince1970: entry.atMilliseconds)),\(spot.cart),Shop,"
      traffic += "Spot \(spot.cart),\(String(format: "%.3f", spot.seconds))\n"
    }
    try Data(traffic.utf8).write(to: folder.file("traffic.csv"))
    let imported = try CLI.run(["schedule", "import", "--db", database, "--tz", "UTC", folder.file("traffic.csv").path])
    try #require(imported.status == 0, "\(imported)")
    let report = try CLI.run(["report", "reconcile", "--db", database, "--tz", "UTC"])
    try #require(report.status == 0, "\(report)")

    // The status each row must have, from the truth alone, by the report's rules.
    var expected: [String: String] = [:]
    for entry in schedule {
      let spot = spots[entry.spot]
      guard let aired = spot.aired, let airedSeconds = spot.airedSeconds else {
        expected[spot.cart] = "missed"
        continue
      }
      let offset = Double(Self.origin) / 1000 + aired.startSeconds - Double(entry.atMilliseconds) / 1000
      expected[spot.cart] =
        aired.channel != entry.channel
        ? "wrong-channel"
        : airedSeconds < spot.seconds * ProofOfPlayReport.partialFraction
          ? "partial"
          : offset > ReconcileReport.defaultToleranceSeconds
            ? "aired-late" : offset < -ReconcileReport.defaultToleranceSeconds ? "aired-early" : "aired"
    }
    expected["G-UNSCHEDULED"] = "unscheduled"
    #expect(Set(expected.values).count == 7, "every status present")

    let rows = try MetadataSheet.parse(report.stdout, path: "reconcile.csv")
    let header = try #require(rows.first)
    #expect(header == ReconcileReport.header)
    let records = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    #expect(
      Dictionary(uniqueKeysWithValues: records.map { ($0["cart"] ?? "", $0["status"] ?? "") }) == expected,
      "\(report.stdout)")
    for record in records {
      let spot = try #require(spots.first { $0.cart == record["cart"] })
      guard let aired = spot.aired else { continue }
      #expect(record["aired_channel"] == aired.channel, "\(record)")
      let start = try #require(ISO8601Millis.parseMillisecondsSince1970(record["aired_start"] ?? ""), "\(record)")
      let truth = Self.origin + Int64(aired.startSeconds * 1000)
      #expect(
        abs(start - truth) <= 1500, "\(spot.cart) aired at \(start - Self.origin) ms, truth \(truth - Self.origin)")
    }
  }
}
