import CSQLite
import Foundation
import Testing

@testable import Reports

@Suite("Migrations")
struct MigrationsTests {
  private func tableNames(in database: SQLiteDatabase) throws -> [String] {
    try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { try $0.string(0) }
  }

  @Test("The play log's migrations are recorded in schema_migrations and not run again on reopen")
  func migrationsAreRecordedAndIdempotent() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      let appliedAt = Date(timeIntervalSince1970: 1_767_225_600)
      do {
        let database = try SQLiteDatabase(path: path)
        #expect(
          try Migrations.playLog.apply(to: database, now: appliedAt) == [
            "001_initial", "002_report_index", "003_traffic_schedule", "004_alerts",
            "005_unknown_music", "006_nodes", "007_late_plays", "008_listener_samples", "009_clips", "010_heartbeats",
            "011_heartbeat_writes", "012_alert_nodes", "013_node_heartbeats",
          ])
      }
      let database = try SQLiteDatabase(path: path)
      #expect(try Migrations.playLog.apply(to: database) == [])
      #expect(
        try database.query("SELECT id, applied_at_ms FROM schema_migrations").map(\.values) == [
          [.text("001_initial"), .integer(1_767_225_600_000)],
          [.text("002_report_index"), .integer(1_767_225_600_000)],
          [.text("003_traffic_schedule"), .integer(1_767_225_600_000)],
          [.text("004_alerts"), .integer(1_767_225_600_000)],
          [.text("005_unknown_music"), .integer(1_767_225_600_000)],
          [.text("006_nodes"), .integer(1_767_225_600_000)],
          [.text("007_late_plays"), .integer(1_767_225_600_000)],
          [.text("008_listener_samples"), .integer(1_767_225_600_000)],
          [.text("009_clips"), .integer(1_767_225_600_000)],
          [.text("010_heartbeats"), .integer(1_767_225_600_000)],
          [.text("011_heartbeat_writes"), .integer(1_767_225_600_000)],
          [.text("012_alert_nodes"), .integer(1_767_225_600_000)],
          [.text("013_node_heartbeats"), .integer(1_767_225_600_000)],
        ])
      #expect(
        try tableNames(in: database) == [
          "air_stretches", "alerts", "catalog_items", "channel_heartbeats", "channel_owners", "channels", "events",
          "listener_samples", "node_heartbeats",
          "play_clips", "plays", "schedule", "schema_migrations", "unknown_segments",
        ])
    }
  }

  @Test("A play log of the first schema gets the report index on open, its plays kept")
  func reportIndexIsAdded() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      do {
        let database = try SQLiteDatabase(path: path)
        try Migrations(Array(Migrations.playLog.list.prefix(1))).apply(to: database)
        try database.run("INSERT INTO channels(name) VALUES('fm')")
        try database.run("INSERT INTO catalog_items(item_key, kind) VALUES('k', 'song')")
        try database.run(
          "INSERT INTO plays VALUES(NULL, 1, 1, 0, 1000, 0, 1, 0.9, 500, 'closed', 0)")
      }
      let store = try PlayLogStore(path: path)
      #expect(try store.plays().count == 1)
      let indexes = try store.database.query(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'plays' ORDER BY name"
      ).map { try $0.string(0) }
      #expect(indexes == ["plays_by_channel_start_item", "plays_by_start", "plays_open_by_node"])
      let plan = try store.database.query(
        "EXPLAIN QUERY PLAN SELECT item_id, count(*), sum(end_ms - start_ms) FROM plays "
          + "WHERE channel_id = 1 AND start_ms >= 0 AND start_ms < 10 GROUP BY item_id"
      ).map { try $0.string(3) }
      #expect(plan.contains { $0.contains("COVERING INDEX plays_by_channel_start_item") }, "\(plan)")
    }
  }

  @Test("A play log of schema 006 keeps its plays, ids and indexes through 007, and then takes late plays")
  func latePlaysMigration() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      do {
        let database = try SQLiteDatabase(path: path)
        try Migrations(Migrations.playLog.list.filter { $0.id < "007" }).apply(to: database)
        try database.execute(
          """
          INSERT INTO channels(name) VALUES('fm');
          INSERT INTO catalog_items(item_key, kind) VALUES('k', 'song');
          INSERT INTO plays VALUES(7, 1, 1, 0, 1000, 0, 1, 0.9, 500, 'closed', 0, 'node-a');
          INSERT INTO plays VALUES(9, 1, 1, 2000, 3000, 0, 1, 0.9, 2500, 'open', 0, '');
          """)
        let late = #expect(throws: SQLiteError.self) {
          try database.run("INSERT INTO plays VALUES(10, 1, 1, 0, 1, 0, 1, 1, 0, 'late', 0, '')")
        }
        #expect(late?.codeName == "SQLITE_CONSTRAINT_CHECK", "006 refuses late")
      }
      let store = try PlayLogStore(path: path)
      #expect(try store.plays().map { [$0.id, $0.start.millisecondsSince1970] } == [[7, 0], [9, 2000]])
      #expect(try store.plays().map(\.status) == [.closed, .open])
      let rows = try store.database.query("SELECT node, identified_at_ms FROM plays ORDER BY id").map(\.values)
      #expect(rows == [[.text("node-a"), .null], [.text(""), .null]])
      let indexes = try store.database.query(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'plays' ORDER BY name"
      ).map { try $0.string(0) }
      #expect(indexes == ["plays_by_channel_start_item", "plays_by_start", "plays_open_by_node"])
      try store.database.run("INSERT INTO plays VALUES(10, 1, 1, 0, 1, 0, 1, 1, 0, 'late', 0, '', 5)")
      #expect(try store.database.firstRow("SELECT play_id FROM unknown_segments") == nil)
    }
  }

  @Test("Only pending migrations run, in order", arguments: StorageLocation.allCases)
  func onlyPendingMigrationsRun(location: StorageLocation) throws {
    try location.withPath { path in
      let first = Migration(id: "001_a", sql: "CREATE TABLE a(x)")
      let second = Migration(id: "002_b", sql: "CREATE TABLE b(y REFERENCES a(x)); INSERT INTO a VALUES(1);")
      let database = try SQLiteDatabase(path: path)
      #expect(try Migrations([first]).apply(to: database) == ["001_a"])
      #expect(try Migrations([first, second]).apply(to: database) == ["002_b"])
      #expect(try Migrations([first, second]).appliedIDs(in: database) == ["001_a", "002_b"])
      #expect(try tableNames(in: database) == ["a", "b", "schema_migrations"])
    }
  }

  @Test("A migration that fails leaves neither its tables nor its record behind")
  func failedMigrationIsRolledBack() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    let broken = Migration(id: "001_broken", sql: "CREATE TABLE a(x); CREATE TABLE b(;")
    let error = #expect(throws: SQLiteError.self) { try Migrations([broken]).apply(to: database) }
    #expect(error?.operation == .run)
    #expect(try tableNames(in: database) == ["schema_migrations"])
    #expect(try Migrations([broken]).appliedIDs(in: database) == [])
  }

  @Test("A play log that records a migration this build does not know is refused, untouched")
  func newerDatabaseIsRefused() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("plays.sqlite").path
      do {
        let database = try SQLiteDatabase(path: path)
        try Migrations.playLog.apply(to: database)
        try database.run("INSERT INTO schema_migrations(id, applied_at_ms) VALUES('999_future', 0)")
      }
      let error = #expect(throws: MigrationError.self) { try PlayLogStore(path: path) }
      #expect(error?.unknownIDs == ["999_future"])
      #expect(
        error?.description
          == "cannot open play log \(path): it was written by a newer version of broadcast-monitor "
          + "(unknown schema migrations: 999_future; this version knows up to 013_node_heartbeats). "
          + "Upgrade broadcast-monitor, or give this version another file.")
      let database = try SQLiteDatabase(path: path)
      #expect(
        try Migrations.playLog.appliedIDs(in: database) == [
          "001_initial", "002_report_index", "003_traffic_schedule", "004_alerts", "005_unknown_music", "006_nodes",
          "007_late_plays", "008_listener_samples", "009_clips", "010_heartbeats", "011_heartbeat_writes",
          "012_alert_nodes", "013_node_heartbeats", "999_future",
        ])
    }
  }

  @Test("Another program's SQLite database named as the play log is refused and left as it was")
  func foreignDatabaseIsRefused() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("places.sqlite").path
      do {
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT); CREATE TABLE plays(x)")
      }
      let error = #expect(throws: ForeignDatabaseError.self) { try PlayLogStore(path: path) }
      #expect(error?.tables == ["moz_places", "plays"])
      #expect(
        error?.description
          == "\(path) is an SQLite database of another program (its tables: moz_places, plays), not a play log: it "
          + "was left as it is. Name a new file for the play log, or the play log broadcast-monitor made")
      #expect(try tableNames(in: try SQLiteDatabase(path: path)) == ["moz_places", "plays"])
    }
  }

  @Test("The play log schema enforces statuses and foreign keys")
  func playLogSchemaEnforcesConstraints() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try Migrations.playLog.apply(to: database)
    try database.execute(
      """
      INSERT INTO channels(id, name) VALUES(1, 'one');
      INSERT INTO catalog_items(id, item_key, kind) VALUES(1, 'k', 'song');
      """)
    let insert = """
      INSERT INTO plays(channel_id, item_id, start_ms, end_ms, ref_offset_ms, speed, confidence, detected_at_ms,
        status, updated_at_ms) VALUES(?, 1, 0, 0, 0, 1, 1, 0, ?, 0)
      """
    try database.run(insert, [.integer(1), .text("open")])
    try database.run(insert, [.integer(1), .text("late")])
    let status = #expect(throws: SQLiteError.self) { try database.run(insert, [.integer(1), .text("bogus")]) }
    #expect(status?.codeName == "SQLITE_CONSTRAINT_CHECK")
    let channel = #expect(throws: SQLiteError.self) { try database.run(insert, [.integer(99), .text("open")]) }
    #expect(channel?.codeName == "SQLITE_CONSTRAINT_FOREIGNKEY")
    let item = try database.firstRow("SELECT title, artist, album, isrc, label, attributes_json FROM catalog_items")
    #expect(item?.values == [.text(""), .text(""), .text(""), .text(""), .text(""), .text("{}")])
  }
}
