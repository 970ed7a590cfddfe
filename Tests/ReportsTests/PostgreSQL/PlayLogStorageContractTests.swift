import Foundation
import TestSupport
import Testing

@testable import Reports

/// The contract of ``PlayLogStorage``, run against both implementations: the same writes give the same plays.
@Suite("PlayLogStorage contract (SQLite and PostgreSQL)")
struct PlayLogStorageContractTests {
  enum Engine: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgreSQL
    var testDescription: String { rawValue }
  }

  /// Runs `body` with a fresh store of `engine`, then returns its plays (read through an SQLite copy for PostgreSQL,
  /// as the reports read them), without their ids (SQLite may reuse the id of a deleted last row; PostgreSQL never).
  static func withStore(
    _ engine: Engine, node: String = "node-a", _ body: (any PlayLogStorage) throws -> Void
  ) throws -> [PlayRecord] {
    try withTemporaryDirectory { folder in
      let sqlitePath = folder.appendingPathComponent("plays.sqlite").path
      switch engine {
      case .sqlite:
        let store = try PlayLogStore(path: sqlitePath)
        try body(store)
        return try store.plays().map {
          var play = $0
          play.id = nil
          return play
        }
      case .postgreSQL:
        let server = try PostgreSQLTestServer()
        let url = try server.makeDatabase("plays")
        let store = try PostgreSQLPlayLogStore(url: url, node: node)
        try body(store)
        try store.close()
        try PlayLogCopy.copy(postgreSQL: url, toSQLite: sqlitePath)
        return try PlayLogStore(path: sqlitePath).plays().map {
          var play = $0
          play.id = nil
          return play
        }
      }
    }
  }

  static func play(_ title: String, start: Int64, status: PlayStatus) -> PlayRecord {
    var play = PlayLogStoreTests.play(itemKey: "key-\(title)", title: title, start: start, status: status)
    play.speed = 1.0123456789012345
    play.confidence = 0.1 + 0.2
    play.metadata.attributes = ["mapl": "M,A", "language": "日本語"]
    play.itemDurationSeconds = 180.5
    return play
  }

  /// Every write of the interface, in the order a monitor makes them across a restart.
  static func script(_ store: any PlayLogStorage) throws {
    let time = PlayLogStoreTests.time
    let closed = try store.record(Self.play("closed", start: 0, status: .open))
    try store.update(
      playID: closed, start: time(-500), end: time(170_000), refOffsetSeconds: 0.25, speed: 1, confidence: 0.9,
      status: .closed)
    let withdrawn = try store.record(Self.play("withdrawn", start: 60_000, status: .open))
    try store.retract(playID: withdrawn)
    #expect(throws: PlayLogError.self) { try store.retract(playID: withdrawn) }
    var cut = Self.play("cut", start: 1_000_000, status: .open)
    cut.refOffsetSeconds = 5
    cut.end = time(1_020_000)
    let cutID = try store.record(cut)
    try store.recordEvent(channel: nil, kind: .restart, start: time(1_030_000), end: nil, detail: "restart")
    #expect(try store.recoverOpenPlays() == [cutID])
    var rest = cut
    rest.start = cut.start.addingTimeInterval(40)
    rest.refOffsetSeconds = 45
    rest.end = cut.start.addingTimeInterval(60)
    var itself = cut
    itself.id = cutID
    #expect(try store.reopenPlayOfSameAiring(as: itself, retrying: false) == nil, "a play is not its own earlier part")
    let reopened = try #require(try store.reopenPlayOfSameAiring(as: rest, retrying: false))
    #expect(reopened == ContinuedPlay(id: cutID, status: .recovered, end: cut.end), "as it was before reopening")
    #expect(!reopened.spans(rest), "the rest of an airing goes on past its first part")
    try store.extend(playID: cutID, end: time(1_150_000), confidence: 0.95, status: .closed)
    #expect(try store.recordedPlayID(matching: cut, startMayHaveMoved: false) == cutID)
    #expect(try store.recordedPlayID(matching: rest, startMayHaveMoved: false) == nil)
    // A young part on a repeated section's line, cut by a restart: its rest continues it and gives it its line.
    var young = Self.play("young", start: 1_200_000, status: .open)
    young.refOffsetSeconds = 15.457
    young.speed = 0.9928
    young.end = time(1_205_248)
    let youngID = try store.record(young)
    #expect(try store.recoverOpenPlays() == [youngID])
    var youngRest = young
    youngRest.start = time(1_209_408)
    youngRest.refOffsetSeconds = 15.604
    youngRest.speed = 1
    youngRest.end = time(1_217_000)
    #expect(try store.reopenPlayOfSameAiring(as: youngRest, retrying: false)?.id == youngID)
    try store.extend(playID: youngID, end: time(1_400_000), confidence: 0.9, status: .closed)
    try store.recordEvent(channel: "CKUA", kind: .gap, start: time(2_000), end: time(3_000), detail: "silence")
    #expect(
      try store.recordedEventID(channel: "CKUA", kind: .gap, start: time(2_000), end: time(3_000), detail: "silence")
        != nil)
    #expect(
      try store.recordedEventID(channel: nil, kind: .gap, start: time(2_000), end: time(3_000), detail: "silence")
        == nil)
    #expect(
      try store.recordedEventID(channel: nil, kind: .restart, start: time(1_030_000), end: nil, detail: "restart")
        != nil)
    #expect(throws: PlayLogError.self) {
      try store.update(
        playID: cutID, start: nil, end: time(0), refOffsetSeconds: 0, speed: 1, confidence: 1, status: .closed)
    }
    // A gap recorded as the source went away, ended when its audio came back; ending it again changes nothing.
    try store.recordEvent(channel: "CKUA", kind: .gap, start: time(5_000), end: nil, detail: "refused")
    try store.endEvent(channel: "CKUA", kind: .gap, start: time(5_000), end: time(5_500))
    try store.endEvent(channel: "CKUA", kind: .gap, start: time(5_000), end: time(6_000))
    try store.endEvent(channel: "other", kind: .gap, start: time(2_000), end: time(6_000))
    #expect(throws: PlayLogError.self) {
      try store.endEvent(channel: "CKUA", kind: .gap, start: time(5_000), end: time(4_000))
    }
    func recorded(_ start: Int64, _ end: Int64?, _ detail: String) throws -> Bool {
      try store.recordedEventID(
        channel: "CKUA", kind: .gap, start: time(start), end: end.map(time), detail: detail) != nil
    }
    #expect(try recorded(5_000, 5_500, "refused"))
    #expect(try !recorded(5_000, 6_000, "refused"))
    #expect(try recorded(5_000, nil, "refused"), "the gap as recorded, when its write is retried after the end")
    #expect(try recorded(2_000, 3_000, "silence"), "an event with an end keeps it")
    // A gap the monitor stopped during (or was killed during) ends at the next start, once.
    try (store as? PostgreSQLPlayLogStore)?.claim(channels: ["CKUA"])
    try store.recordEvent(channel: "CKUA", kind: .gap, start: time(7_000), end: nil, detail: "stopped")
    try store.recordEvent(channel: "gone", kind: .gap, start: time(7_000), end: nil, detail: "stopped")
    #expect(try store.recoverDowntime(channels: ["CKUA", "new"], at: time(9_000)) == RecoveredDowntime(endedGaps: 1))
    #expect(try store.recoverDowntime(channels: ["CKUA"], at: time(10_000)) == RecoveredDowntime())
    #expect(try recorded(7_000, 9_000, "stopped"))
    #expect(
      try store.recordedEventID(channel: "gone", kind: .gap, start: time(7_000), end: time(9_000), detail: "stopped")
        == nil, "a channel this start does not listen to keeps its gap open")
  }

  @Test("Both stores end with the same plays after the same writes", arguments: Engine.allCases)
  func sameWritesSamePlays(engine: Engine) throws {
    let plays = try Self.withStore(engine, Self.script)
    let expected = try Self.withStore(.sqlite, Self.script)
    #expect(plays.map(\.metadata.title) == ["closed", "cut", "young"])
    #expect(plays.last?.refOffsetSeconds == 6.196, "the young part takes its rest's line: \(plays)")
    #expect(plays == expected)
    #expect(plays.map(\.status) == [.closed, .closed, .closed])
    #expect(plays.first?.start == PlayLogStoreTests.time(-500))
  }

  @Test(
    "A killed run's heartbeats become its channels' gaps at the next start, once; a channel whose gap is open keeps that one",
    arguments: Engine.allCases)
  func killedRunHeartbeatsBecomeGaps(engine: Engine) throws {
    _ = try Self.withStore(engine) { store in
      let time = PlayLogStoreTests.time
      func heartbeat(_ channel: String, _ milliseconds: Int64) -> ChannelHeartbeat {
        ChannelHeartbeat(channel: channel, heardThrough: time(milliseconds))
      }
      func gap(_ channel: String, _ start: Int64, _ end: Int64?, _ detail: String) throws -> Bool {
        try store.recordedEventID(
          channel: channel, kind: .gap, start: time(start), end: end.map(time), detail: detail) != nil
      }
      try (store as? PostgreSQLPlayLogStore)?.claim(channels: ["CKUA", "CJSW", "CFRO", "gone"])
      // The run heard four channels, then CFRO's source went away (its gap open), and the run was killed.
      try store.recordHeartbeat([heartbeat("CKUA", 1_000), heartbeat("CJSW", 1_000), heartbeat("gone", 1_000)])
      try store.recordHeartbeat([
        heartbeat("CKUA", 2_000), heartbeat("CJSW", 2_500), heartbeat("CFRO", 2_000), heartbeat("gone", 2_000),
      ])
      try store.recordEvent(channel: "CFRO", kind: .gap, start: time(2_100), end: nil, detail: "source down")
      // Three heartbeats written as gaps (CFRO's covered by its own gap), and CFRO's gap ended.
      #expect(
        try store.recoverDowntime(channels: ["CKUA", "CJSW", "CFRO"], at: time(9_000))
          == RecoveredDowntime(killedRunGaps: 3, oldestHeartbeat: time(2_000), endedGaps: 1))
      let killed = PlayLogStore.killedRunDetail
      #expect(try gap("CKUA", 2_000, 9_000, killed), "from the last heartbeat, not the first")
      #expect(try gap("CJSW", 2_500, 9_000, killed))
      #expect(try gap("CFRO", 2_100, 9_000, "source down"))
      #expect(try !gap("CFRO", 2_000, 9_000, killed), "the open gap covers the channel: not two gaps")
      #expect(try gap("gone", 2_000, nil, killed), "a channel this start does not listen to stays not heard")
      #expect(try !gap("gone", 2_000, 9_000, killed), "its gap stays open")
      #expect(
        try store.recoverDowntime(channels: ["CKUA", "CJSW", "CFRO"], at: time(10_000)).killedRunGaps == 0, "once")
      // A run that stops clears its heartbeats: its stop gaps say when it stopped hearing.
      try store.recordHeartbeat([heartbeat("CKUA", 20_000)])
      try store.recordHeartbeat([])
      #expect(try store.recoverDowntime(channels: ["CKUA"], at: time(30_000)) == RecoveredDowntime())
      #expect(try !gap("CKUA", 20_000, 30_000, killed))
    }
  }

  /// Runs `body` with a fresh store of `engine` and returns the rows of the alerts, stretches and unknown segments
  /// as text (read through an SQLite copy for PostgreSQL, as reports read them), and its unknown fingerprints.
  static func alertAndStretchRows(
    _ engine: Engine, _ body: (any PlayLogStorage) throws -> Void
  ) throws -> (rows: [String], fingerprints: [String]) {
    try withTemporaryDirectory { folder in
      let sqlitePath = folder.appendingPathComponent("plays.sqlite").path
      var fingerprints: [String] = []
      switch engine {
      case .sqlite:
        let store = try PlayLogStore(path: sqlitePath)
        try body(store)
        fingerprints = try store.unknownFingerprints().map {
          "\($0.cluster) \($0.clusterOffsetSeconds) \($0.fingerprint)"
        }
      case .postgreSQL:
        let server = try PostgreSQLTestServer()
        let url = try server.makeDatabase("plays")
        let store = try PostgreSQLPlayLogStore(url: url, node: "node-a")
        try body(store)
        fingerprints = try store.unknownFingerprints().map {
          "\($0.cluster) \($0.clusterOffsetSeconds) \($0.fingerprint)"
        }
        try store.close()
        try PlayLogCopy.copy(postgreSQL: url, toSQLite: sqlitePath)
      }
      let database = try SQLiteDatabase(path: sqlitePath)
      var rows: [String] = []
      for sql in [
        "SELECT coalesce(c.name, '-'), a.kind, a.start_ms, a.end_ms, a.detail FROM alerts AS a "
          + "LEFT JOIN channels AS c ON c.id = a.channel_id ORDER BY a.start_ms, a.kind",
        "SELECT c.name, s.start_ms, s.end_ms, s.label, s.item_key, s.music_confidence FROM air_stretches AS s "
          + "JOIN channels AS c ON c.id = s.channel_id ORDER BY s.start_ms",
        "SELECT c.name, u.start_ms, u.cluster, u.cluster_offset_ms, u.fingerprint, u.clip_path FROM unknown_segments AS u "
          + "JOIN channels AS c ON c.id = u.channel_id ORDER BY u.start_ms",
        "SELECT c.name, l.sampled_at_ms, l.listeners FROM listener_samples AS l "
          + "JOIN channels AS c ON c.id = l.channel_id ORDER BY l.sampled_at_ms",
        "SELECT u.clip_start_ms, u.clip_end_ms FROM unknown_segments AS u ORDER BY u.start_ms",
        "SELECT c.name, p.item_key, p.play_start_ms, p.play_end_ms, p.clip_start_ms, p.clip_end_ms, p.clip_path "
          + "FROM play_clips AS p JOIN channels AS c ON c.id = p.channel_id ORDER BY p.play_start_ms",
      ] {
        rows += try database.query(sql).map { "\($0.values)" }
      }
      return (rows, fingerprints)
    }
  }

  @Test(
    "Both stores keep alerts, stretches, unknown segments, listener samples and play clips alike, each once",
    arguments: Engine.allCases)
  func alertsAndStretchesAlike(engine: Engine) throws {
    let time = PlayLogStoreTests.time
    func script(_ store: any PlayLogStorage) throws {
      for _ in 0..<2 {  // every write twice: a retry or a replayed spool
        try store.openAlert(channel: "fm", kind: "silence", start: time(0), detail: "quiet")
        try store.openAlert(channel: nil, kind: "play_log_unwritable", start: time(5), detail: "locked")
        try store.closeAlert(channel: "fm", kind: "silence", start: time(0), end: time(30), detail: "quiet")
        try store.record(
          AirStretchRecord(
            channel: "fm", start: time(100), end: time(160), label: "unknown-music", musicConfidence: 0.875,
            unknown: AirStretchRecord.Unknown(
              cluster: 3, clusterOffsetSeconds: 1.5, fingerprint: "QUJD", clipPath: "clips/fm.opus",
              clipStart: time(110), clipEnd: time(160))))
        try store.record(
          AirStretchRecord(channel: "fm", start: time(160), end: time(170), label: "speech", musicConfidence: 0.25))
        try store.recordListeners(channel: "fm", sampledAt: time(100), listeners: 42)
        try store.recordListeners(channel: "fm", sampledAt: time(115), listeners: 0)
        try store.record(
          PlayClipRecord(
            channel: "fm", itemKey: "cat:sale", playStart: time(200), playEnd: time(230), clipStart: time(200),
            clipEnd: time(230), clipPath: "clips/fm_ad.opus"))
      }
    }
    let result = try Self.alertAndStretchRows(engine, script)
    let expected = try Self.alertAndStretchRows(.sqlite, script)
    // Two alerts, two stretches, one unknown segment, two listener samples, its clip's span, one play clip.
    #expect(result.rows.count == 9, "\(result.rows)")
    #expect(result.rows == expected.rows)
    #expect(result.fingerprints == ["3 1.5 QUJD"])
  }

  @Test(
    "Both stores cut and move unknown segments alike when a cluster is split, once however often it is applied",
    arguments: Engine.allCases)
  func revisionsAlike(engine: Engine) throws {
    let time = PlayLogStoreTests.time
    func script(_ store: any PlayLogStorage) throws {
      for (start, end): (Int64, Int64) in [(100, 160), (300, 340)] {
        try store.record(
          AirStretchRecord(
            channel: "fm", start: time(start), end: time(end), label: "unknown-music", musicConfidence: 0.875,
            unknown: AirStretchRecord.Unknown(
              cluster: 3, clusterOffsetSeconds: start == 100 ? 0 : 30, fingerprint: "QUJD",
              clipPath: "clips/fm.opus", clipStart: time(start), clipEnd: time(end))))
      }
      for _ in 0..<2 {  // every write twice: a retry or a replayed spool
        try store.revise(
          UnknownSegmentRevision(
            channel: "fm", start: time(100), cluster: 3, clusterOffsetSeconds: 0, fingerprint: "SEVBRA",
            tail: UnknownSegmentRevision.Tail(
              start: time(130), cluster: 4, clusterOffsetSeconds: 0, fingerprint: "VEFJTA")))
        try store.revise(
          UnknownSegmentRevision(
            channel: "fm", start: time(300), cluster: 4, clusterOffsetSeconds: 0, fingerprint: "QUJD"))
        // A segment the play log lacks is left alone.
        try store.revise(
          UnknownSegmentRevision(channel: "fm", start: time(999), cluster: 9, clusterOffsetSeconds: 0, fingerprint: ""))
      }
    }
    let result = try Self.alertAndStretchRows(engine, script)
    let expected = try Self.alertAndStretchRows(.sqlite, script)
    #expect(result.rows == expected.rows)
    // The first segment is two, with its stretch; the clip and its span go with both parts.
    #expect(result.fingerprints == ["3 0.0 SEVBRA", "4 0.0 VEFJTA", "4 0.0 QUJD"], "\(result.rows)")
    #expect(result.rows.filter { $0.contains("unknown-music") }.count == 3, "\(result.rows)")
    #expect(result.rows.filter { $0.contains("clips/fm.opus") }.count == 3, "\(result.rows)")
  }
}
