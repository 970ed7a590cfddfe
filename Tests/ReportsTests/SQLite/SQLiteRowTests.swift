import CSQLite
import Foundation
import Testing

@testable import Reports

@Suite("SQLiteRow")
struct SQLiteRowTests {
  private func row(_ values: [SQLiteValue]) -> SQLiteRow {
    SQLiteRow(
      values: values, columnNames: values.indices.map { "c\($0)" }, sql: "SELECT …", path: "/x/plays.sqlite",
      databaseName: "play log")
  }

  @Test("Typed accessors read their storage class; a REAL column accepts a whole INTEGER")
  func typedAccessors() throws {
    let row = row([.integer(1_767_225_792_345), .real(1.04), .integer(2), .text("東京"), .null])
    #expect(try row.int64(0) == 1_767_225_792_345)
    #expect(try row.date(0) == Date(timeIntervalSince1970: 1_767_225_792.345))
    #expect(try row.double(1) == 1.04)
    #expect(try row.double(2) == 2)
    #expect(try row.string(3) == "東京")
    #expect(try row.optionalInt64(4) == nil)
    #expect(try row.optionalDate(4) == nil)
  }

  @Test("A NULL or a value of another type throws SQLITE_MISMATCH naming the column")
  func mismatchNamesTheColumn() throws {
    let row = row([.null, .text("x")])
    let nullError = #expect(throws: SQLiteError.self) { try row.int64(0) }
    #expect(nullError?.code == SQLITE_MISMATCH)
    #expect(nullError?.message == "column c0 holds null, expected an integer")
    let textError = #expect(throws: SQLiteError.self) { try row.double(1) }
    #expect(textError?.message == "column c1 holds text, expected a number")
    #expect(textError?.description.contains("/x/plays.sqlite") == true)
  }
}
