import Foundation
import Testing

@testable import Reports

/// A strict RFC 4180 reader, for checking what `CSVWriter` writes: every record ends with CRLF, a field is either
/// quoted (quotes inside doubled) or free of commas, quotes, CR and LF, and nothing else is accepted.
struct StrictCSVParser {
  struct Malformed: Error, Equatable {
    let reason: String
    let offset: Int
  }

  static func parse(_ text: String) throws -> [[String]] {
    let bytes = Array(text.utf8)
    var records: [[String]] = []
    var record: [String] = []
    var index = 0
    func fail(_ reason: String) -> Malformed { Malformed(reason: reason, offset: index) }
    while index < bytes.count {
      var field: [UInt8] = []
      if bytes[index] == UInt8(ascii: "\"") {
        index += 1
        while true {
          guard index < bytes.count else { throw fail("unterminated quoted field") }
          if bytes[index] == UInt8(ascii: "\"") {
            if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
              field.append(UInt8(ascii: "\""))
              index += 2
            } else {
              index += 1
              break
            }
          } else {
            field.append(bytes[index])
            index += 1
          }
        }
      } else {
        while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains(bytes[index]) {
          guard bytes[index] != UInt8(ascii: "\"") else { throw fail("quote inside an unquoted field") }
          field.append(bytes[index])
          index += 1
        }
      }
      record.append(String(decoding: field, as: UTF8.self))
      guard index < bytes.count else { throw fail("the last record does not end with CRLF") }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "\r"):
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") else { throw fail("CR without LF") }
        index += 2
        records.append(record)
        record = []
      default:
        throw fail("a field is followed by something other than a comma or CRLF")
      }
    }
    guard record.isEmpty else { throw fail("the last record does not end with CRLF") }
    return records
  }
}

@Suite("CSVWriter")
struct CSVWriterTests {
  @Test("The strict test parser rejects what RFC 4180 does not allow")
  func strictParserRejectsMalformedCSV() {
    for malformed in ["a,b\n", "a\"b\r\n", "\"a\r\n", "\"a\"b\r\n", "a,b", "a\rb\r\n"] {
      #expect(throws: StrictCSVParser.Malformed.self, "\(malformed.debugDescription)") {
        try StrictCSVParser.parse(malformed)
      }
    }
  }

  @Test("Fields with commas, quotes, CR, LF and unicode round-trip through a strict RFC 4180 parser")
  func awkwardFieldsRoundTrip() throws {
    let rows = [
      ["plain", "with, comma", "with \"quotes\"", "line\nbreak", "carriage\rreturn", "crlf\r\nend"],
      ["", "\"", ",", "東京 🎵 naïve", "\"\"", "trailing space "],
    ]
    let writer = CSVWriter()
    for row in rows {
      try writer.writeRow(row.map(CSVField.text))
    }
    #expect(try StrictCSVParser.parse(writer.text) == rows)
  }

  @Test("Plain fields are written bare, quotes are doubled, and every record ends with CRLF")
  func exactEncoding() throws {
    let writer = CSVWriter()
    try writer.writeHeader(["a", "b"])
    try writer.writeRow([.text("x"), .text("say \"hi\", twice")])
    try writer.writeRow([.number("1.0400"), .text("")])
    #expect(writer.text == "a,b\r\nx,\"say \"\"hi\"\", twice\"\r\n1.0400,\r\n")
  }

  @Test(
    "A text cell that starts like a formula is prefixed with a single quote",
    arguments: [
      ("=1+1", "'=1+1"), ("+x", "'+x"), ("-x", "'-x"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "\"'\rx\""),
      ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
    ])
  func formulasAreNeutralized(value: String, written: String) throws {
    #expect(CSVWriter.encode(.text(value)) == written)
    let writer = CSVWriter()
    try writer.writeRow([.text(value)])
    #expect(try StrictCSVParser.parse(writer.text) == [["'" + value]])
  }

  @Test("Number cells are written verbatim, a leading minus or plus included", arguments: ["-0.5", "+1", "-12.000"])
  func numbersAreLeftAlone(value: String) {
    #expect(CSVWriter.encode(.number(value)) == value)
  }

  @Test(
    "Text with a formula character after its first character is left alone", arguments: ["a=b", "1-2", " =x", "x@y"])
  func laterFormulaCharactersAreLeftAlone(value: String) {
    #expect(CSVWriter.encode(.text(value)) == value)
  }

  @Test("A writer to a file writes the same bytes as one in memory, with no byte order mark")
  func fileOutputMatchesMemoryOutput() throws {
    try withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("out.csv")
      #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
      let handle = try FileHandle(forWritingTo: url)
      let fileWriter = CSVWriter(fileHandle: handle, destination: url.path, bufferCapacity: 16)
      let memoryWriter = CSVWriter()
      for index in 0..<100 {
        let row: [CSVField] = [.text("Café \(index)"), .number(String(-index)), .text("=\(index), \"q\"")]
        try fileWriter.writeRow(row)
        try memoryWriter.writeRow(row)
      }
      try fileWriter.flush()
      try handle.close()
      let bytes = try Data(contentsOf: url)
      #expect(bytes == Data(memoryWriter.text.utf8))
      #expect(bytes.prefix(3) != Data([0xEF, 0xBB, 0xBF]))
      #expect(fileWriter.text == "")
      #expect(try StrictCSVParser.parse(memoryWriter.text).count == 100)
    }
  }

  @Test("A failed write to a file says where and what to do")
  func writeFailureIsReported() throws {
    try withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("out.csv")
      #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
      let handle = try FileHandle(forReadingFrom: url)
      let writer = CSVWriter(fileHandle: handle, destination: url.path)
      try writer.writeRow([.text("x")])
      let error = #expect(throws: CSVWriteError.self) { try writer.flush() }
      #expect(error?.description.hasPrefix("cannot write CSV to \(url.path): ") == true)
      #expect(error?.description.hasSuffix("the CSV is incomplete.") == true)
    }
  }
}
