import CSQLite
import Foundation
import Testing

@testable import Reports

@Suite("PreparedStatement")
struct PreparedStatementTests {
  private let database: SQLiteDatabase

  init() throws {
    database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(n INTEGER, r REAL, s TEXT)")
    try database.execute("INSERT INTO t VALUES(1, 0.5, 'one'), (2, NULL, 'two')")
  }

  @Test("Stepping returns each row in order, then stops")
  func stepLoopReturnsRows() throws {
    let rows = try database.withStatement("SELECT n, r, s FROM t ORDER BY n", []) { try $0.rows() }
    #expect(rows.map(\.values) == [[.integer(1), .real(0.5), .text("one")], [.integer(2), .null, .text("two")]])
    #expect(rows.first?.columnNames == ["n", "r", "s"])
  }

  @Test("Reset clears the bindings of the previous run")
  func resetClearsBindings() throws {
    let sql = "SELECT ?1 IS NULL"
    try database.withStatement(sql, [.integer(7)]) { (statement: PreparedStatement) throws in
      #expect(try statement.step())
      #expect(try statement.currentRow()[0] == .integer(0))
      statement.reset()
      #expect(try statement.step())
      #expect(try statement.currentRow()[0] == .integer(1))
    }
  }

  @Test("The cached statement is the same object on every run")
  func cachedStatementIsReused() throws {
    let sql = "SELECT count(*) FROM t"
    let first = try database.withStatement(sql, []) { ObjectIdentifier($0) }
    let second = try database.withStatement(sql, []) { ObjectIdentifier($0) }
    #expect(first == second)
  }

  @Test("Two statements in one prepared statement are refused; a trailing comment is fine")
  func oneStatementOnly() throws {
    let error = #expect(throws: SQLiteError.self) { try database.run("SELECT 1; SELECT 2") }
    #expect(error?.code == SQLITE_MISUSE)
    #expect(try database.firstRow("SELECT 3; -- three\n /* end */ ")?[0] == .integer(3))
  }

  @Test("Binding the wrong number of values is refused with SQLITE_RANGE")
  func wrongBindingCountIsRefused() throws {
    let error = #expect(throws: SQLiteError.self) { try database.run("SELECT ?, ?", [.integer(1)]) }
    #expect(error?.code == SQLITE_RANGE)
    #expect(error?.message == "1 values for 2 parameters")
  }

  @Test("A finalized statement refuses to step")
  func finalizedStatementRefusesToStep() throws {
    let statement = try database.withStatement("SELECT 1", []) { $0 }
    statement.finalize()
    #expect(statement.handle == nil)
    let error = #expect(throws: SQLiteError.self) { try statement.step() }
    #expect(error?.code == SQLITE_MISUSE)
  }

  @Test("A statement reads a string with an embedded NUL and multi-byte characters whole")
  func textIsReadWhole() throws {
    let value = try database.firstRow("SELECT ?", [.text("before\u{0}after — 東京 👩‍👩‍👧")])?[0]
    #expect(value == .text("before\u{0}after — 東京 👩‍👩‍👧"))
  }
}
