import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// `/api/v1/plays`, `/api/v1/events` and `/api/v1/alerts` on a PostgreSQL play log: the same pages as from an SQLite
/// one holding the same rows, byte for byte, through every filter and cursor.
@Suite("API router on PostgreSQL")
struct APIRouterPostgreSQLTests {
  static func hour(_ hours: Double) -> Date { Date(timeIntervalSince1970: 1_796_000_000 + hours * 3600) }

  /// The same writes into either store: plays of two channels (two with the same start, so that the cursor's id
  /// decides; one still open; one identified late), events with and without a channel or an end, alerts open and
  /// closed, of a channel and of the monitor. Each alert is written once: PostgreSQL's identity columns skip a
  /// number for every upsert that updates a row, so an alert opened then closed would have another id there (the
  /// rows would be the same, their ids not).
  static func write(_ store: any PlayLogStorage) throws {
    let hour = Self.hour(_:)
    for (index, channel) in ["fm1", "fm2", "fm1", "fm2", "fm1", "fm1", "fm2"].enumerated() {
      let start = hour(Double(index / 2))  // pairs of plays start together
      try store.record(
        PlayRecord(
          channel: channel, itemKey: "item-\(index % 3)", title: "Title \(index % 3) \"q\"", artist: "Artist ✓",
          isrc: index % 3 == 0 ? "GBAYE0601498" : "", kind: index % 3 == 2 ? .ad : .song,
          start: start, end: start.addingTimeInterval(180.5), refOffsetSeconds: 1.25 * Double(index),
          speed: 1.0123456789012345, confidence: 0.1 + 0.2, detectedAt: start.addingTimeInterval(7),
          status: index == 6 ? .open : .closed))
    }
    try store.record(
      AirStretchRecord(
        channel: "fm2", start: hour(5), end: hour(5.05), label: "unknown-music", musicConfidence: 0.9,
        unknown: AirStretchRecord.Unknown(cluster: 1, clusterOffsetSeconds: 0, fingerprint: "")))
    let segment = try #require(try store.unknownSegments(cluster: 1).first)
    try store.recordLatePlays(
      [
        LatePlay(
          segmentID: segment.id,
          play: PlayRecord(
            channel: "fm2", itemKey: "found", title: "Found", start: segment.start, end: segment.end,
            confidence: 0.9, detectedAt: segment.end, status: .late))
      ], identifiedAt: hour(30))

    try store.recordEvent(channel: nil, kind: .restart, start: hour(0), detail: "")
    try store.recordEvent(channel: "fm1", kind: .gap, start: hour(1), end: hour(1.01), detail: "no audio")
    try store.recordEvent(channel: "fm2", kind: .reconnect, start: hour(1), end: hour(1.02), detail: "stream")
    try store.recordEvent(channel: "fm1", kind: .overrun, start: hour(2.5), detail: "3 blocks")

    try store.closeAlert(channel: nil, kind: "play_log_unwritable", start: hour(0), end: hour(0.5), detail: "full")
    try store.closeAlert(channel: "fm1", kind: "silence", start: hour(1), end: hour(1.1), detail: "below -50 dBFS")
    try store.openAlert(channel: "fm2", kind: "source_down", start: hour(2), detail: "no audio for 10 s")
    try store.openAlert(channel: "fm1", kind: "silence", start: hour(2), detail: "below -50 dBFS")
  }

  static func router(_ databasePath: String) -> APIRouter {
    APIRouter(
      readings: FixedReadings(),
      configuration: MonitorConfiguration(catalogPath: "/c.bmcat", databasePath: databasePath, channels: []),
      token: nil, log: nil)
  }

  @Test(
    "the same plays, events and alerts in SQLite and in PostgreSQL give the same API pages, filters and cursors",
    .timeLimit(.minutes(10)))
  func samePages() throws {
    let folder = try TemporaryDirectory(prefix: "api-postgres")
    let sqlitePath = folder.file("plays.sqlite").path
    let sqlite = try PlayLogStore(path: sqlitePath)
    try Self.write(sqlite)
    try sqlite.close()
    let server = try PostgreSQLTestServer()
    let url = try server.makeDatabase("plays")
    let postgreSQL = try PostgreSQLPlayLogStore(url: url, node: "a")
    try Self.write(postgreSQL)
    try postgreSQL.close()

    let fromSQLite = Self.router(sqlitePath)
    let fromPostgreSQL = Self.router(url)
    let queries: [[(String, String)]] = [
      [], [("channel", "fm1")], [("channel", "fm2"), ("limit", "2")], [("from", "2026-11-30T01:53:20Z")],
      [("to", "2026-11-30T01:53:20Z")], [("from", "2026-11-30T00:53:20Z"), ("to", "2026-11-30T02:30:00Z")],
      [("channel", "nowhere")], [("limit", "1")], [("limit", "2")], [("limit", "3")],
    ]
    var rows: [String: Int] = [:]
    for (path, key) in [("/api/v1/plays", "plays"), ("/api/v1/events", "events"), ("/api/v1/alerts", "alerts")] {
      for query in queries {
        // Every page of the query, following the cursors.
        var cursor: String?
        var pages = 0
        repeat {
          let request = HTTPRequest(
            method: "GET", path: path,
            query: (query + (cursor.map { [("cursor", $0)] } ?? [])).map { (name: $0.0, value: $0.1) })
          let expected = fromSQLite.respond(to: request)
          let answer = fromPostgreSQL.respond(to: request)
          #expect(expected.status == 200, "\(path) \(query) from SQLite: \(expected.bodyText)")
          #expect(answer.status == 200, "\(path) \(query) from PostgreSQL: \(answer.bodyText)")
          #expect(answer.bodyText == expected.bodyText, "\(path) \(query) cursor \(cursor ?? "none")")
          let object = try #require(
            try JSONSerialization.jsonObject(with: Data(expected.bodyText.utf8)) as? [String: Any])
          if query.isEmpty { rows[key] = (object[key] as? [Any])?.count }
          cursor = object["nextCursor"] as? String
          pages += 1
        } while cursor != nil && pages < 20
        #expect(pages < 20, "\(path) \(query): the cursors go on")
      }
    }
    #expect(rows == ["plays": 8, "events": 4, "alerts": 4], "every row was listed, so the pages were compared")
    let plays = fromPostgreSQL.respond(to: HTTPRequest(method: "GET", path: "/api/v1/plays")).bodyText
    #expect(plays.contains(#""identifiedAt":"2026-12-01T06:53:20.000Z""#), "the late play: \(plays)")
    #expect(
      plays.contains("\"speed\":\(1.0123456789012345)") && plays.contains("\"confidence\":\(0.1 + 0.2)"), "\(plays)")
  }

  @Test("a PostgreSQL server that cannot be reached answers 503 naming the play log, not a crash")
  func unreachable() throws {
    let url = "postgresql://bm@127.0.0.1:\(try LocalTCP.freePort())/plays"
    let response = Self.router(url).respond(to: HTTPRequest(method: "GET", path: "/api/v1/events"))
    #expect(response.status == 503, "\(response.bodyText)")
    #expect(try APIRouterTests.error(response).contains("127.0.0.1"), "\(response.bodyText)")
  }
}
