import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// A play identified late (its cluster of unknown music added to the catalog) in `/api/v1/plays`.
@Suite("APIRouter late plays")
struct APIRouterLatePlaysTests {
  @Test("/api/v1/plays gives a late play its status and identifiedAt, and every other play identifiedAt null")
  func latePlayInPage() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      let start = ISO8601Millis.parse("2026-01-01T10:00:00Z")!
      let identifiedAt = ISO8601Millis.parse("2026-02-01T12:00:00Z")!
      try store.record(
        AirStretchRecord(
          channel: "fm", start: start, end: start.addingTimeInterval(200), label: "unknown-music",
          musicConfidence: 0.9, unknown: AirStretchRecord.Unknown(cluster: 1, clusterOffsetSeconds: 0, fingerprint: ""))
      )
      let segment = try #require(try store.unknownSegments(cluster: 1).first)
      try store.recordLatePlays(
        [
          LatePlay(
            segmentID: segment.id,
            play: PlayRecord(
              channel: "fm", itemKey: "found", title: "Found", start: segment.start, end: segment.end,
              confidence: 0.9, detectedAt: segment.end, status: .late))
        ], identifiedAt: identifiedAt)
      try store.record(
        PlayRecord(
          channel: "fm", itemKey: "k", title: "Known", start: start.addingTimeInterval(300),
          end: start.addingTimeInterval(400), confidence: 1, detectedAt: start.addingTimeInterval(303),
          status: .closed))
      let reader = try PlayLogReader(path: path)
      let rows = try reader.playsPage(PlayLogPage.Filter(limit: 10)).rows
      let json = rows.map { APIRouter.play($0).text }
      #expect(json.count == 2)
      #expect(json[0].contains(#""status":"closed""#) && json[0].contains(#""identifiedAt":null"#), "\(json[0])")
      #expect(json[1].contains(#""status":"late""#), "\(json[1])")
      #expect(json[1].contains(#""identifiedAt":"2026-02-01T12:00:00.000Z""#), "\(json[1])")
    }
  }
}
