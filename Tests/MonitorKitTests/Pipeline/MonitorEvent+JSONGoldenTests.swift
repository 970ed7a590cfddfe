import Common
import Foundation
import Reports
import Synchronization
import TestSupport
import Testing

@testable import Matcher
@testable import MonitorKit

/// One JSON line of every kind of `MonitorEvent`, as `run --json` writes them, kept in
/// `Tests/Fixtures/golden/events/json-lines.txt`: a change to a kind's name, its fields, their order or how values are
/// written alters the file and has to update it on purpose (`UPDATE_GOLDEN=1`).
///
/// The play events come from a real `PlayEventSink` fed matcher events, as a channel's worker feeds it; the sink stamps
/// each event with the time it wrote it, so that field (the first) is replaced by a fixed time. The other kinds are
/// built as `ChannelPipeline` and `MonitorLog` build them, at fixed times.
@Suite("MonitorEvent JSON golden lines")
struct MonitorEventJSONGoldenTests {
  static let origin = 1_796_000_472.345  // 2026-11-30T01:01:12.345Z
  static let fixedTime = "2026-11-30T01:01:12.345Z"

  static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: origin + seconds) }

  static func play(id: Int, start: Double, end: Double) -> MatchedPlay {
    let track = CatalogTrack(
      key: "armygeddon", sourcePath: "/music/catalog-a.ogg",
      metadata: TrackMetadata(title: "Armygeddon", artist: "Muldjord", isrc: "ZZBMF2600001"), durationSeconds: 30,
      audibleStartSeconds: 0, audibleEndSeconds: 30, loudEndSeconds: 30, globalStartFrame: 0, frameCount: 900,
      hashCount: 700,
      addedAt: Date(timeIntervalSince1970: 0))
    return MatchedPlay(
      id: id, track: track, startSeconds: start, endSeconds: end, referenceOffsetSeconds: 2.5, speed: 1.04,
      pitchShifted: true, confidence: 0.875, detectedAtSeconds: start + 4, matchCount: 40)
  }

  @Test("A JSON line of every kind of event is the golden file's")
  func everyKind() throws {
    let lines = Mutex<[String]>([])
    let log = MonitorLog(format: .json) { text in lines.withLock { $0.append(text) } }

    // Plays, through the sink that writes them in a running monitor.
    let folder = try TemporaryDirectory(prefix: "json-golden")
    let writer = PlayLogWriter(
      store: try PlayLogStore(path: folder.file("plays.sqlite").path), log: MonitorLog(write: { _ in }))
    var clock = StreamClock()
    clock.observe(stream: 0, wall: Self.origin)
    let sink = PlayEventSink(channel: "fm", writer: writer, log: log, clock: clock)
    sink.receive(.playStarted(Self.play(id: 1, start: 10.25, end: 14.25)))
    sink.receive(.playEnded(Self.play(id: 1, start: 10.25, end: 190.5)))
    sink.receive(.playStarted(Self.play(id: 2, start: 200, end: 204)))
    sink.receive(.playRetracted(Self.play(id: 2, start: 200, end: 204)))
    #expect(writer.stop().isEmpty)

    // The input's notices, lagging and catching up, with the fields `ChannelPipeline` gives them.
    for (kind, end) in [(EventKind.gap, nil), (.reconnect, 300.0), (.overrun, 301.5), (.xrun, 302.0)] {
      let detail = "\(kind.rawValue) detail: \"quoted\""
      log.record(
        MonitorEvent(
          time: Self.date(400), channel: "fm", name: kind, message: "\(kind.rawValue): \(detail)",
          fields: [
            ("start", .time(Self.date(299))), ("end", end.map { .time(Self.date($0)) } ?? .null),
            ("detail", .string(detail)),
          ]))
    }
    log.record(
      MonitorEvent(
        time: Self.date(500), channel: "fm", name: .lagging, message: "lagging: the matcher is 12.3 s behind",
        fields: [("start", .time(Self.date(490))), ("end", .null), ("lag_s", .number(12.3))]))
    log.record(
      MonitorEvent(
        time: Self.date(600), channel: "fm", name: .caughtUp, message: "caught up: 0.2 s of audio waiting",
        fields: [
          ("start", .time(Self.date(490))), ("end", .time(Self.date(600))), ("lag_s", .number(0.2)),
          ("max_lag_s", .number(31.4)),
        ]))
    // Alerts, as `AlertWatcher` logs them.
    log.record(
      AlertEvent(
        time: Self.date(650), opened: true, channel: "fm", kind: .silence, start: Self.date(635), end: nil,
        detail: "below -50 dBFS for 15 s"
      ).monitorEvent)
    log.record(
      AlertEvent(
        time: Self.date(690), opened: false, channel: nil, kind: .playLogUnwritable, start: Self.date(635),
        end: Self.date(689.5), detail: "disk full"
      ).monitorEvent)
    log.line("catalog reloaded: 3 items; no play running", channel: "fm", at: Self.date(700))
    log.line("play log unreachable", at: Self.date(800), severity: .error)

    let text = lines.withLock { $0 }.map { line in
      // The sink stamps its play events when it writes them: their time is the only field that may vary.
      guard line.contains(#""event":"play_"#) else { return line }
      return line.replacing(/^\{"time":"[^"]*"/, with: "{\"time\":\"\(Self.fixedTime)\"")
    }.joined()
    let kinds = Set(text.split(separator: "\n").compactMap { $0.firstMatch(of: /"event":"([a-z_]+)"/)?.1 })
    #expect(
      kinds
        == [
          "play_started", "play_ended", "play_withdrawn", "gap", "reconnect", "overrun", "xrun", "lagging",
          "caught_up", "alert_opened", "alert_closed", "notice",
        ], "every kind MonitorEvent documents")
    let mismatch = try Golden.mismatch(text, file: "events/json-lines.txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }
}
