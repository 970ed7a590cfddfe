import Foundation
import Testing

@testable import Reports

@Suite("PlayCSVFormat")
struct PlayCSVFormatTests {
  private static let play = PlayRecord(
    id: 7, channel: "CKUA", itemKey: "k1", title: "Song, with comma", artist: "-Artist", album: "",
    isrc: "CAU111100001", label: "Label", kind: .song, attributes: ["x": "y"],
    start: Date(millisecondsSince1970: 1_767_225_792_345), end: Date(millisecondsSince1970: 1_767_225_984_845),
    refOffsetSeconds: -0.5, speed: 1.04, confidence: 0.9876, detectedAt: Date(millisecondsSince1970: 1_767_225_799_001),
    status: .recovered)

  private static func csv(_ format: PlayCSVFormat, _ plays: [PlayRecord]) throws -> String {
    let writer = CSVWriter()
    try writer.writeHeader(format.header)
    for play in plays {
      try writer.writeRow(format.row(play))
    }
    return writer.text
  }

  @Test("The header is exactly the documented one")
  func headerIsExact() {
    #expect(
      PlayCSVFormat().header.joined(separator: ",")
        == "channel,start,end,duration_s,title,artist,album,isrc,label,kind,ref_offset_s,speed,confidence,detected_at")
  }

  @Test("A play's row has ISO times with milliseconds and fixed decimals, and guards its text cells")
  func rowIsExact() throws {
    let text = try Self.csv(PlayCSVFormat(), [Self.play])
    let row = try #require(text.components(separatedBy: "\r\n").dropFirst().first)
    #expect(
      row
        == "CKUA,2026-01-01T00:03:12.345Z,2026-01-01T00:06:24.845Z,192.500,\"Song, with comma\",'-Artist,,"
        + "CAU111100001,Label,song,-0.500,1.0400,0.988,2026-01-01T00:03:19.001Z")
  }

  @Test("Extra columns follow the standard ones, in header and rows")
  func extraColumnsAreAppended() throws {
    let format = PlayCSVFormat(extraColumns: [.status])
    let records = try StrictCSVParser.parse(try Self.csv(format, [Self.play]))
    #expect(records.first?.last == "status")
    #expect(records.last?.last == "recovered")
    #expect(records.map(\.count) == [15, 15])
  }

  @Test("Every column's cell kind is fixed: times and numbers are number cells, metadata is text")
  func cellKindsAreFixed() {
    let kinds = PlayCSVFormat().row(Self.play).map(\.kind)
    let numberColumns = ["start", "end", "duration_s", "ref_offset_s", "speed", "confidence", "detected_at"]
    let expected = PlayCSVFormat().header.map { numberColumns.contains($0) ? CSVField.Kind.number : .text }
    #expect(kinds == expected)
  }
}
