import Foundation
import Testing

@testable import Reports

/// `COPY … (FORMAT binary)` rows as libpq hands them over, built byte by byte as PostgreSQL's documentation of the
/// format describes them.
private typealias T = BinaryCopyParserTests

@Suite("BinaryCopyParser")
struct BinaryCopyParserTests {
  static let header = BinaryCopyParser.signature + [0, 0, 0, 0] + [0, 0, 0, 0]

  /// A row of `fields` (nil for NULL).
  static func row(_ fields: [[UInt8]?]) -> [UInt8] {
    var bytes = withUnsafeBytes(of: Int16(fields.count).bigEndian, Array.init)
    for field in fields {
      bytes += withUnsafeBytes(of: Int32(field?.count ?? -1).bigEndian, Array.init)
      bytes += field ?? []
    }
    return bytes
  }

  static func int8(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

  /// What `parser` reads from `message`: the fields as bytes, or nil for the trailer.
  static func read(_ message: [UInt8], with parser: inout BinaryCopyParser) throws -> [[UInt8]?]? {
    var fields: [[UInt8]?] = []
    let isRow = try message.withUnsafeBufferPointer { buffer in
      try parser.row(buffer) { index, field in
        #expect(index == fields.count)
        fields.append(field.map(Array.init))
      }
    }
    return isRow ? fields : nil
  }

  @Test("Reads the header, each row's fields in place (NULL as nil, text with its line end) and the trailer")
  func readsRows() throws {
    var parser = BinaryCopyParser(fieldCount: 3, source: "plays", url: "postgresql://bm@host/db")
    let first = Self.header + Self.row([Self.int8(-1), nil, Array("a\tb\\c\n".utf8)])
    #expect(try Self.read(first, with: &parser) == [Self.int8(-1), nil, Array("a\tb\\c\n".utf8)])
    #expect(try Self.read(Self.row([Self.int8(.max), [], []]), with: &parser) == [Self.int8(.max), [], []])
    #expect(try Self.read([0xFF, 0xFF], with: &parser) == nil)
  }

  @Test("An empty stream is its header and trailer in one message")
  func readsAnEmptyStream() throws {
    var parser = BinaryCopyParser(fieldCount: 2, source: "events", url: "u")
    #expect(try Self.read(Self.header + [0xFF, 0xFF], with: &parser) == nil)
  }

  @Test(
    "A row that is not one of the table's is refused, naming the table and the problem",
    arguments: [
      (T.header + T.row([T.int8(1)]), "a row of 1 fields where 2 were asked for"),
      (Array(T.header.prefix(10)), "no PGCOPY header"),
      (T.header + T.row([T.int8(1), T.int8(2)]).dropLast(), "a field cut short"),
      (T.header + T.row([T.int8(1), T.int8(2)]) + [0], "1 bytes after a row"),
      (T.header + [0], "a row cut short"),
    ])
  func refusesAForeignRow(message: [UInt8], problem: String) throws {
    var parser = BinaryCopyParser(fieldCount: 2, source: "schedule", url: "postgresql://bm@host/db")
    #expect {
      _ = try Self.read(message, with: &parser)
    } throws: { error in
      "\(error)".contains("unreadable COPY data of schedule: \(problem)") && "\(error)".contains("postgresql://bm@host")
    }
  }

  @Test("Nothing is read after the trailer")
  func refusesDataAfterTheEnd() throws {
    var parser = BinaryCopyParser(fieldCount: 1, source: "plays", url: "u")
    #expect(try Self.read(Self.header + [0xFF, 0xFF], with: &parser) == nil)
    #expect(throws: PostgreSQLError.self) { _ = try Self.read(Self.row([Self.int8(1)]), with: &parser) }
  }
}
