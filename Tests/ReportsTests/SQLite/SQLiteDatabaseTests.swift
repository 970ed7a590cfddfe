import CSQLite
import Foundation
import Testing

@testable import Reports

@Suite("SQLiteDatabase")
struct SQLiteDatabaseTests {
  private func pragma(_ name: String, in database: SQLiteDatabase) throws -> SQLiteValue? {
    try database.firstRow("PRAGMA \(name)")?[0]
  }

  @Test("A file database answers wal to journal_mode, with FULL sync, foreign keys and a 5 s busy timeout")
  func fileDatabaseIsConfigured() throws {
    try withTemporaryDirectory { folder in
      let database = try SQLiteDatabase(path: folder.appendingPathComponent("x.sqlite").path)
      #expect(database.journalMode == "wal")
      #expect(try pragma("journal_mode", in: database) == .text("wal"))
      #expect(try pragma("synchronous", in: database) == .integer(2))
      #expect(try pragma("foreign_keys", in: database) == .integer(1))
      #expect(try pragma("busy_timeout", in: database) == .integer(5_000))
    }
  }

  @Test("An in-memory database answers memory to journal_mode, and that is accepted only for :memory:")
  func inMemoryDatabaseAnswersMemory() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    #expect(database.isInMemory)
    #expect(database.journalMode == "memory")
    #expect(try pragma("foreign_keys", in: database) == .integer(1))
  }

  @Test("Opening a path in a folder that does not exist throws an SQLiteError that names the file")
  func missingFolderIsReported() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("missing/plays.sqlite").path
      let error = #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: path, name: "play log") }
      #expect(error?.operation == .open)
      #expect(error.map { $0.code & 0xFF } == SQLITE_CANTOPEN)
      #expect(error?.path == path)
      #expect(
        error?.description
          == "cannot open play log \(path): unable to open database file (SQLITE_CANTOPEN). "
          + "Check that the folder exists and is writable.")
    }
  }

  @Test("A database opened later throws the open's error at each call until it opens, then runs its setup once")
  func openedLater() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("later/plays.sqlite").path
      var setups = 0
      let database = SQLiteDatabase(openingLater: path, name: "play log") { database in
        setups += 1
        try database.execute("CREATE TABLE IF NOT EXISTS t(x INTEGER)")
      }
      for _ in 0..<2 {
        let error = #expect(throws: SQLiteError.self) { try database.run("INSERT INTO t VALUES (1)") }
        #expect(error.map { $0.code & 0xFF } == SQLITE_CANTOPEN && error?.operation == .open)
      }
      #expect(setups == 0)
      try FileManager.default.createDirectory(
        atPath: folder.appendingPathComponent("later").path, withIntermediateDirectories: true)
      try database.run("INSERT INTO t VALUES (1)")
      try database.run("INSERT INTO t VALUES (2)")
      #expect(setups == 1)
      #expect(database.journalMode == "wal")
      #expect(try database.firstRow("SELECT count(*) FROM t")?[0] == .integer(2))
      try database.close()
      #expect(throws: SQLiteError.self) { try database.run("INSERT INTO t VALUES (3)") }  // closed stays closed
      #expect(setups == 1)
    }
  }

  @Test("A file that is not an SQLite database is refused on open with advice to restore it")
  func foreignFileIsRefused() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("notes.sqlite").path
      try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
      let error = #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: path) }
      #expect(error?.operation == .open)
      #expect(error?.codeName == "SQLITE_NOTADB")
      #expect(error?.description.contains("restore it from a backup") == true)
      #expect(error?.description.contains("check that the path names the right file") == true)
      #expect(error?.isUnusableFile == true, "a person must act: exit status 78")
    }
  }

  @Test("Running the same SQL again reuses its prepared statement")
  func statementsAreCachedBySQLText() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(x INTEGER)")
    for value in 0..<50 {
      try database.run("INSERT INTO t(x) VALUES(?)", [.integer(Int64(value))])
    }
    #expect(database.cachedStatementCount == 1)
    #expect(try database.firstRow("SELECT count(*) FROM t")?[0] == .integer(50))
    #expect(database.cachedStatementCount == 2)
  }

  @Test("A statement that fails is dropped from the cache, and the next run prepares it afresh")
  func failedStatementIsDropped() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(x INTEGER UNIQUE)")
    let insert = "INSERT INTO t(x) VALUES(?)"
    try database.run(insert, [.integer(1)])
    #expect(database.cachedStatementCount == 1)
    let error = #expect(throws: SQLiteError.self) { try database.run(insert, [.integer(1)]) }
    #expect(error?.codeName == "SQLITE_CONSTRAINT_UNIQUE")
    #expect(error?.sql == insert)
    #expect(database.cachedStatementCount == 0)
    try database.run(insert, [.integer(2)])
    #expect(database.cachedStatementCount == 1)
    #expect(try database.query("SELECT x FROM t ORDER BY x").map { $0[0] } == [.integer(1), .integer(2)])
  }

  @Test("SQL that does not compile gives a prepare error that quotes the SQL")
  func prepareErrorQuotesSQL() throws {
    let database = try SQLiteDatabase(path: ":memory:", name: "play log")
    let error = #expect(throws: SQLiteError.self) { try database.run("SELEC 1") }
    #expect(error?.operation == .prepare)
    #expect(error?.codeName == "SQLITE_ERROR")
    #expect(
      error?.description
        == "cannot prepare SQL for play log :memory:: near \"SELEC\": syntax error (SQLITE_ERROR). "
        + "This is a bug in broadcast-monitor: please report it with this message. SQL: SELEC 1")
    #expect(database.cachedStatementCount == 0)
  }

  @Test("A transaction commits all the body's writes")
  func transactionCommits() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(x INTEGER)")
    let result = try database.transaction {
      #expect(database.isInTransaction)
      try database.run("INSERT INTO t(x) VALUES(1)")
      try database.run("INSERT INTO t(x) VALUES(2)")
      return "done"
    }
    #expect(result == "done")
    #expect(!database.isInTransaction)
    #expect(try database.firstRow("SELECT count(*) FROM t")?[0] == .integer(2))
  }

  @Test("A transaction whose body throws rolls back every write and rethrows")
  func transactionRollsBack() throws {
    struct Stop: Error {}
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(x INTEGER)")
    #expect(throws: Stop.self) {
      try database.transaction {
        try database.run("INSERT INTO t(x) VALUES(1)")
        throw Stop()
      }
    }
    #expect(!database.isInTransaction)
    #expect(try database.firstRow("SELECT count(*) FROM t")?[0] == .integer(0))
  }

  @Test("A transaction inside a transaction is refused")
  func nestedTransactionIsRefused() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) {
      try database.transaction { try database.transaction {} }
    }
    #expect(error?.code == SQLITE_MISUSE)
    #expect(!database.isInTransaction)
  }

  @Test("Close finalizes every statement, and the database cannot be used after it")
  func closeFinalizesStatements() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    _ = try database.query("SELECT 1")
    _ = try database.query("SELECT 2")
    #expect(database.cachedStatementCount == 2)
    try database.close()
    #expect(database.cachedStatementCount == 0)
    let error = #expect(throws: SQLiteError.self) { try database.query("SELECT 1") }
    #expect(error?.code == SQLITE_MISUSE)
    #expect(error?.message == "the database was closed")
  }

  @Test("Execute runs several statements at once")
  func executeRunsSeveralStatements() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(x); INSERT INTO t VALUES(1); INSERT INTO t VALUES(2);")
    #expect(try database.firstRow("SELECT sum(x) FROM t")?[0] == .integer(3))
    let error = #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO missing VALUES(1)") }
    #expect(error?.message == "no such table: missing")
  }

  @Test("Values bind as their storage class; a date binds as integer milliseconds since 1970")
  func valuesBindAsTheirStorageClass() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    let date = Date(timeIntervalSince1970: 1_767_225_792.345)
    let row = try database.firstRow(
      "SELECT typeof(?1), ?1, typeof(?2), ?2, typeof(?3), ?3, typeof(?4), ?4, typeof(?5), length(?6), ?7",
      [.integer(Int64.min), .real(-0.25), .text("a\u{0}b"), .date(date), .null, .text(""), .text("日本語 🎵")])
    #expect(
      row?.values == [
        .text("integer"), .integer(Int64.min), .text("real"), .real(-0.25), .text("text"), .text("a\u{0}b"),
        .text("integer"), .integer(1_767_225_792_345), .text("null"), .integer(0), .text("日本語 🎵"),
      ])
  }

  @Test("A second connection reads a WAL file while the first holds an open write transaction")
  func walLetsReadersProceed() throws {
    try withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("x.sqlite").path
      let writer = try SQLiteDatabase(path: path)
      try writer.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES(1);")
      let reader = try SQLiteDatabase(path: path)
      try writer.transaction {
        try writer.run("INSERT INTO t VALUES(2)")
        #expect(try reader.firstRow("SELECT count(*) FROM t")?[0] == .integer(1))
      }
      #expect(try reader.firstRow("SELECT count(*) FROM t")?[0] == .integer(2))
    }
  }
}
