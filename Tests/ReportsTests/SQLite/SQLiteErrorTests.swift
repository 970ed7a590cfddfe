import CSQLite
import Testing

@testable import Reports

@Suite("SQLiteError")
struct SQLiteErrorTests {
  @Test(
    "Result codes are named, extended ones too",
    arguments: [
      (SQLITE_CANTOPEN, "SQLITE_CANTOPEN"),
      (SQLITE_CONSTRAINT | 8 << 8, "SQLITE_CONSTRAINT_UNIQUE"),
      (SQLITE_BUSY | 3 << 8, "SQLITE_BUSY_TIMEOUT"),
      (SQLITE_IOERR | 99 << 8, "SQLITE_IOERR/25354"),
      (SQLITE_DONE, "SQLITE_DONE"),
    ])
  func codesAreNamed(code: Int32, name: String) {
    #expect(SQLiteError.name(of: code) == name)
  }

  @Test("Advice follows the primary code: a full disk says to free space, a constraint asks for a bug report")
  func adviceFollowsThePrimaryCode() {
    #expect(SQLiteError.defaultAdvice(for: SQLITE_FULL) == "The disk is full: free some space.")
    #expect(SQLiteError.defaultAdvice(for: SQLITE_CONSTRAINT | 8 << 8).contains("bug in broadcast-monitor"))
    #expect(SQLiteError.defaultAdvice(for: SQLITE_BUSY | 3 << 8).contains("5 s busy timeout"))
    // The -shm file that a full disk cannot grow (found with a play log on a full tmpfs): not a failing disk.
    #expect(SQLiteError.defaultAdvice(for: SQLITE_IOERR | 19 << 8).contains("the disk is most likely full"))
    #expect(SQLiteError.name(of: SQLITE_IOERR | 19 << 8) == "SQLITE_IOERR_SHMSIZE")
  }

  @Test("Long SQL is put on one line and cut to 200 characters")
  func sqlIsAbbreviated() throws {
    let sql = "SELECT\n  " + Array(repeating: "column_name", count: 40).joined(separator: ",\n  ") + "\nFROM t"
    let error = SQLiteError(.run, code: SQLITE_ERROR, message: "m", sql: sql, path: "p", advice: "Do this.")
    let quoted = try #require(error.description.components(separatedBy: " SQL: ").last)
    #expect(error.description.hasPrefix("cannot run SQL on database p: m (SQLITE_ERROR). Do this. SQL: SELECT "))
    #expect(quoted.count == 200)
    #expect(quoted.hasSuffix("…"))
    #expect(!quoted.contains("\n"))
  }
}
