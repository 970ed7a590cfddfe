import Common
import Foundation

@testable import Reports

/// A small, hand-checked play log for the report tests: a few catalog items and plays written through the
/// production store (`PlayLogStore.record`), in a file of a fresh temporary folder.
struct ReportFixture {
  /// Where the catalog items come from, by short name.
  static let items: [String: PlayRecord] = [
    "north": item(
      key: "cat:north", title: "Northern Lights", artist: "Aurora Band", album: "Borealis", isrc: "CAAAA2600001",
      label: "Maple Music", attributes: ["MAPL": "MAPL"], seconds: 180),
    "hit": item(
      key: "cat:hit", title: "Summer Hit", artist: "Global Star", album: "Hits", isrc: "USBBB2600002",
      label: "Big Label", attributes: ["MAPL": "A", "language": "en"], seconds: 200),
    "mer": item(
      key: "cat:mer", title: "La Mer", artist: "Chanteuse", album: "Océans", isrc: "FRCCC2600003",
      label: "Label Bleu", attributes: ["language": "FR"], seconds: 150),
    "sale": item(
      key: "cat:sale", title: "Spring Sale 30s", kind: .ad,
      attributes: ["advertiser": "Hardware Co", "cart": "C1001"],
      seconds: 30),
    "car": item(
      key: "cat:car", title: "Car Deal", kind: .ad, attributes: ["Advertiser": "Auto Dealer", "ISCI": "AUTO0015000H"],
      seconds: 15),
    "ident": item(key: "cat:ident", title: "Station ID", kind: .jingle, seconds: 5),
  ]

  static func item(
    key: String, title: String, artist: String = "", album: String = "", isrc: String = "", label: String = "",
    kind: ItemKind = .song, attributes: [String: String] = [:], seconds: Double
  ) -> PlayRecord {
    PlayRecord(
      channel: "", itemKey: key, title: title, artist: artist, album: album, isrc: isrc, label: label, kind: kind,
      attributes: attributes, itemDurationSeconds: seconds, start: Date(), end: Date(), confidence: 0.9,
      detectedAt: Date(), status: .closed)
  }

  /// One play: `item` (a key of `items`) on `channel` from `start` (ISO 8601) for `seconds`.
  struct Play {
    var channel: String
    var item: String
    var start: String
    var seconds: Double
    var status: PlayStatus = .closed
  }

  let folder: URL
  let path: String

  /// A play log holding `plays` of `items`, recorded in the order given.
  init(_ plays: [Play], items: [String: PlayRecord] = ReportFixture.items) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ReportsTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    path = folder.appendingPathComponent("plays.sqlite").path
    let store = try PlayLogStore(path: path)
    for play in plays {
      guard var record = items[play.item], let start = ISO8601Millis.parse(play.start) else {
        preconditionFailure("bad fixture play \(play)")
      }
      record.channel = play.channel
      record.start = start
      record.end = start.addingTimeInterval(play.seconds)
      record.detectedAt = start.addingTimeInterval(7)
      record.status = play.status
      try store.record(record)
    }
    try store.close()
  }

  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Runs `write` on a new reader and a CSV writer in memory and returns the CSV.
  func csv(_ write: (PlayLogReader, CSVWriter) throws -> Void) throws -> String {
    let reader = try PlayLogReader(path: path)
    let writer = CSVWriter()
    try write(reader, writer)
    return writer.text
  }
}

extension TimeZone {
  static let toronto = TimeZone(identifier: "America/Toronto")!
  static let paris = TimeZone(identifier: "Europe/Paris")!
  static let utc = TimeZone(identifier: "UTC")!
}

/// Lines joined with CRLF, each ended by one: expected CSV text.
func crlf(_ lines: String...) -> String {
  lines.map { $0 + "\r\n" }.joined()
}
