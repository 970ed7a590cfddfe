import CSQLite
import Foundation
import Testing

@testable import Reports

@Suite("PlayLogStore")
struct PlayLogStoreTests {
  /// 2026-01-01T00:00:00Z.
  static let newYear: Int64 = 1_767_225_600_000

  /// A time `milliseconds` after 2026-01-01T00:00:00Z.
  static func time(_ milliseconds: Int64) -> Date {
    Date(millisecondsSince1970: newYear + milliseconds)
  }

  static func play(
    channel: String = "CKUA", itemKey: String = "item-1", title: String = "Title", start: Int64,
    length: Int64 = 180_000,
    status: PlayStatus = .closed
  ) -> PlayRecord {
    PlayRecord(
      channel: channel, itemKey: itemKey, title: title, start: time(start), end: time(start + length),
      refOffsetSeconds: 0, speed: 1, confidence: 0.9, detectedAt: time(start + 7_000), status: status)
  }

  @Test(
    "A play round-trips with millisecond times, unicode metadata and attributes", arguments: StorageLocation.allCases)
  func playRoundTrips(location: StorageLocation) throws {
    try location.withPath { path in
      let store = try PlayLogStore(path: path)
      let play = PlayRecord(
        channel: "FM 東京 📻", itemKey: "cat:0042", title: "夜に駆ける", artist: "YOASOBI", album: "THE BOOK 📖",
        isrc: "JPU901900587", label: "Sony Music", kind: .song,
        attributes: ["language": "日本語", "mapl": "M,A", "note": "quote \" and / slash 🎶"], itemDurationSeconds: 261.5,
        start: Self.time(192_345), end: Self.time(453_789), refOffsetSeconds: 1.234, speed: 1.04, confidence: 0.987,
        detectedAt: Self.time(199_001), status: .open)
      let id = try store.record(play)
      var expected = play
      expected.id = id
      #expect(try store.plays() == [expected])
      let duration = try #require(try store.plays().first?.durationSeconds)
      #expect(abs(duration - 261.444) < 1e-6)
    }
  }

  @Test("Plays are filtered by channel and by a half-open [from, to) on their start")
  func playsAreFiltered() throws {
    let store = try PlayLogStore(path: ":memory:")
    for (channel, start) in [("A", 0), ("B", 1_000), ("A", 2_000), ("B", 3_000), ("A", 4_000)] {
      try store.record(Self.play(channel: channel, start: Int64(start), length: 500))
    }
    func starts(_ plays: [PlayRecord]) -> [Int64] { plays.map { $0.start.millisecondsSince1970 - Self.newYear } }
    #expect(starts(try store.plays(from: Self.time(1_000), to: Self.time(3_000))) == [1_000, 2_000])
    #expect(starts(try store.plays(from: Self.time(1_001))) == [2_000, 3_000, 4_000])
    #expect(starts(try store.plays(to: Self.time(1_000))) == [0])
    #expect(starts(try store.plays(channel: "A", from: Self.time(0), to: Self.time(4_000))) == [0, 2_000])
    #expect(starts(try store.plays(channel: "B")) == [1_000, 3_000])
    #expect(try store.plays(channel: "C").isEmpty)
    #expect(try store.plays(from: Self.time(3_000), to: Self.time(3_000)).isEmpty)
  }

  @Test("Plays come back in air order: by start, then channel, then the order they were recorded")
  func playsComeBackInAirOrder() throws {
    let store = try PlayLogStore(path: ":memory:")
    try store.record(Self.play(channel: "B", title: "b-late", start: 5_000))
    try store.record(Self.play(channel: "B", title: "b-first", start: 1_000))
    try store.record(Self.play(channel: "A", title: "a-first", start: 1_000))
    try store.record(Self.play(channel: "B", title: "b-second", start: 1_000))
    #expect(try store.plays().map(\.channel) == ["A", "B", "B", "B"])
    let ids = try store.plays().compactMap(\.id)
    #expect(ids == [3, 2, 4, 1])
  }

  @Test(
    "An update moves the end, refreshes the match values and changes the status", arguments: StorageLocation.allCases)
  func updateChangesEndAndStatus(location: StorageLocation) throws {
    try location.withPath { path in
      let store = try PlayLogStore(path: path)
      let id = try store.record(Self.play(start: 0, length: 10_000, status: .open))
      try store.update(
        playID: id, end: Self.time(185_432), refOffsetSeconds: 0.25, speed: 0.98, confidence: 0.95, status: .closed)
      let play = try #require(try store.plays().first)
      #expect(play.end == Self.time(185_432))
      #expect(play.status == .closed)
      #expect(play.refOffsetSeconds == 0.25)
      #expect(play.speed == 0.98)
      #expect(play.confidence == 0.95)
      #expect(play.start == Self.time(0))
    }
  }

  @Test("An update with a start moves the start too, and refuses an end before the new start")
  func updateMovesTheStart() throws {
    let store = try PlayLogStore(path: ":memory:")
    let id = try store.record(Self.play(start: 10_000, length: 10_000, status: .open))
    try store.update(
      playID: id, start: Self.time(9_650), end: Self.time(30_000), refOffsetSeconds: 0, speed: 1, confidence: 0.9,
      status: .open)
    #expect(try store.plays().first?.start == Self.time(9_650))
    #expect(throws: PlayLogError.self) {
      try store.update(
        playID: id, start: Self.time(40_000), end: Self.time(35_000), refOffsetSeconds: 0, speed: 1, confidence: 1,
        status: .closed)
    }
    #expect(try store.plays().first?.start == Self.time(9_650), "the refused update changed nothing")
    #expect(try store.plays().first?.end == Self.time(30_000))
  }

  @Test("Updating a play the log does not have throws noSuchPlay")
  func updatingAnUnknownPlayThrows() throws {
    let store = try PlayLogStore(path: ":memory:")
    #expect(throws: PlayLogError.noSuchPlay(id: 42, path: ":memory:")) {
      try store.update(playID: 42, end: Self.time(0), refOffsetSeconds: 0, speed: 1, confidence: 1, status: .closed)
    }
  }

  @Test("An update that would end a play before its start is refused and changes nothing")
  func updateBeforeStartIsRefused() throws {
    let store = try PlayLogStore(path: ":memory:")
    let id = try store.record(Self.play(start: 10_000, length: 1_000, status: .open))
    let error = #expect(throws: PlayLogError.self) {
      try store.update(playID: id, end: Self.time(9_999), refOffsetSeconds: 0, speed: 1, confidence: 1, status: .closed)
    }
    #expect(error?.description.contains("2026-01-01T00:00:09.999Z") == true)
    #expect(try store.plays().first?.status == .open)
  }

  @Test("A play with an unusable value is refused with a reason, and nothing is written")
  func invalidPlaysAreRefused() throws {
    let store = try PlayLogStore(path: ":memory:")
    var nan = Self.play(start: 0)
    nan.confidence = .nan
    var backwards = Self.play(start: 5_000)
    backwards.end = Self.time(4_999)
    var noChannel = Self.play(start: 0)
    noChannel.channel = ""
    var noKey = Self.play(start: 0)
    noKey.itemKey = ""
    let cases: [(PlayRecord, String)] = [
      (nan, "the confidence nan is not finite or out of range"),
      (backwards, "the end 2026-01-01T00:00:04.999Z is before the start 2026-01-01T00:00:05.000Z"),
      (noChannel, "the channel name is empty"),
      (noKey, "the catalog item key is empty (item \"Title\")"),
    ]
    for (play, reason) in cases {
      #expect(throws: PlayLogError.invalidPlay(reason: reason, path: ":memory:")) { try store.record(play) }
    }
    #expect(try store.plays().isEmpty)
    #expect(try store.database.firstRow("SELECT count(*) FROM channels")?[0] == .integer(0))
  }

  @Test("Recording many plays reuses the same prepared statements")
  func statementsAreReused() throws {
    let store = try PlayLogStore(path: ":memory:")
    try store.record(Self.play(start: 0))
    let count = store.database.cachedStatementCount
    for index in 1...200 {
      try store.record(Self.play(channel: "C\(index % 3)", itemKey: "item-\(index % 7)", start: Int64(index) * 1_000))
    }
    #expect(store.database.cachedStatementCount == count)
    #expect(try store.plays().count == 201)
  }

  @Test("Channels and catalog items are stored once; new metadata for an item updates the mirror")
  func catalogMirrorIsUpserted() throws {
    let store = try PlayLogStore(path: ":memory:")
    var first = Self.play(itemKey: "k", title: "Old title", start: 0)
    first.itemDurationSeconds = 200
    try store.record(first)
    var second = Self.play(itemKey: "k", title: "New title", start: 300_000)
    second.metadata.attributes = ["advertiser": "ACME"]
    try store.record(second)
    #expect(try store.database.firstRow("SELECT count(*) FROM channels")?[0] == .integer(1))
    #expect(try store.database.firstRow("SELECT count(*) FROM catalog_items")?[0] == .integer(1))
    let plays = try store.plays()
    #expect(plays.map(\.metadata.title) == ["New title", "New title"])
    #expect(plays.map(\.metadata.attributes) == [["advertiser": "ACME"], ["advertiser": "ACME"]])
    #expect(plays.map(\.itemDurationSeconds) == [200, 200])
  }

  @Test("Events are recorded with a channel, or for the whole monitor without one", arguments: StorageLocation.allCases)
  func eventsAreRecorded(location: StorageLocation) throws {
    try location.withPath { path in
      let store = try PlayLogStore(path: path)
      let gap = try store.recordEvent(
        channel: "CKUA", kind: .gap, start: Self.time(1_000), end: Self.time(4_500), detail: "silence 3.5 s")
      let restart = try store.recordEvent(channel: nil, kind: .restart, start: Self.time(9_000))
      #expect(gap != restart)
      let rows = try store.database.query(
        """
        SELECT c.name, e.kind, e.start_ms, e.end_ms, e.detail FROM events AS e LEFT JOIN channels AS c
          ON c.id = e.channel_id ORDER BY e.id
        """)
      #expect(
        rows.map(\.values) == [
          [
            .text("CKUA"), .text("gap"), .integer(Self.newYear + 1_000), .integer(Self.newYear + 4_500),
            .text("silence 3.5 s"),
          ],
          [.null, .text("restart"), .integer(Self.newYear + 9_000), .null, .text("")],
        ])
    }
  }

  @Test("An event that ends before it starts is refused")
  func backwardsEventIsRefused() throws {
    let store = try PlayLogStore(path: ":memory:")
    let error = #expect(throws: PlayLogError.self) {
      try store.recordEvent(channel: "CKUA", kind: .overrun, start: Self.time(2_000), end: Self.time(1_000))
    }
    #expect(
      error?.description
        == "cannot record event in play log :memory:: the overrun event ends at 2026-01-01T00:00:01.000Z, before its "
        + "start 2026-01-01T00:00:02.000Z. This is a bug in broadcast-monitor: please report it with this message.")
  }

  @Test("Plays survive closing and reopening the file")
  func playsSurviveReopening() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let store = try PlayLogStore(path: path)
      let id = try store.record(Self.play(start: 0))
      try store.close()
      let reopened = try PlayLogStore(path: path)
      #expect(try reopened.plays().map(\.id) == [id])
    }
  }

  @Test("A play log in a folder that does not exist fails with an SQLiteError naming the file")
  func missingFolderIsReported() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("nowhere/plays.sqlite").path
      let error = #expect(throws: SQLiteError.self) { try PlayLogStore(path: path) }
      #expect(error?.path == path)
      #expect(error?.description.hasPrefix("cannot open play log \(path): unable to open database file") == true)
    }
  }
}
