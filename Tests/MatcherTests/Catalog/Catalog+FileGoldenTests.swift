import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

/// The header and the track table of a catalog file of the three fixture songs, as text in
/// `Tests/Fixtures/golden/catalog/header.txt`: the magic, the version, every field of the JSON header, and every
/// field of the track table in the order it lies, one per line, so that a change to the file format (a field added,
/// renamed or moved, a parameter's default) has to update the file on purpose (`UPDATE_GOLDEN=1`). The track table is
/// read here by its documented layout (`CatalogTrackTable`), not by the code under test. Fractions are written to
/// three decimals and the things that differ from run to run (when an item was added, where its file lies) are
/// masked, so the text depends on the format, not on float bits or the machine.
@Suite("Catalog file golden header", .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct CatalogFileGoldenTests {
  /// A JSON value, to print the header field by field.
  enum Value: Decodable {
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([Value])
    case object([String: Value])
    case null

    init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let value = try? single.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? single.decode(Int.self) {
        self = .integer(value)
      } else if let value = try? single.decode(Double.self) {
        self = .number(value)
      } else if let value = try? single.decode(String.self) {
        self = .string(value)
      } else if let value = try? single.decode([Value].self) {
        self = .array(value)
      } else {
        self = .object(try single.decode([String: Value].self))
      }
    }

    /// `path = value` lines, keys sorted.
    func lines(_ path: String) -> [String] {
      let key = path.split(separator: ".").last.map(String.init) ?? path
      switch self {
      case _ where key == "addedAt": return ["\(path) = (the time it was added)"]
      // The table's length counts the source paths' bytes; the table is read to its end below.
      case _ where path == "trackTable.bytes": return ["\(path) = (the length of the track table below)"]
      case .string(let text) where key == "sourcePath": return ["\(path) = …/\((text as NSString).lastPathComponent)"]
      case .bool(let value): return ["\(path) = \(value)"]
      case .integer(let value): return ["\(path) = \(value)"]
      case .number(let value): return ["\(path) = " + String(format: "%.3f", value)]
      case .string(let text): return ["\(path) = \"\(text)\""]
      case .null: return ["\(path) = null"]
      case .array(let values): return values.enumerated().flatMap { $0.element.lines("\(path)[\($0.offset)]") }
      case .object(let members):
        return members.keys.sorted().flatMap { members[$0]!.lines(path.isEmpty ? $0 : "\(path).\($0)") }
      }
    }
  }

  /// The track table's fields as `table[i].field = value` lines, in the order the layout puts them.
  static func trackTableLines(_ table: ArraySlice<UInt8>, count: Int) throws -> [String] {
    var offset = table.startIndex
    func integer(_ size: Int) throws -> UInt64 {
      try #require(offset + size <= table.endIndex, "the track table ends early")
      defer { offset += size }
      return (0..<size).reduce(0) { $0 | UInt64(table[offset + $1]) << (8 * UInt64($1)) }
    }
    func text() throws -> String {
      let length = Int(try integer(4))
      try #require(offset + length <= table.endIndex, "the track table ends early")
      defer { offset += length }
      return String(decoding: table[offset..<(offset + length)], as: UTF8.self)
    }
    var lines: [String] = []
    for i in 0..<count {
      let name = "table[\(i)]"
      lines.append("\(name).globalStartFrame = \(try integer(4))")
      lines.append("\(name).frameCount = \(try integer(4))")
      lines.append("\(name).hashCount = \(Int64(bitPattern: try integer(8)))")
      for field in ["durationSeconds", "audibleStartSeconds", "audibleEndSeconds", "loudEndSeconds"] {
        lines.append("\(name).\(field) = " + String(format: "%.3f", Double(bitPattern: try integer(8))))
      }
      _ = try integer(8)
      lines.append("\(name).addedAt = (the time it was added)")
      lines.append("\(name).key = \"\(try text())\"")
      lines.append("\(name).sourcePath = …/\((try text() as NSString).lastPathComponent)")
      for field in ["title", "artist", "album", "isrc", "label", "kind"] {
        lines.append("\(name).\(field) = \"\(try text())\"")
      }
      let attributes = try integer(4)
      lines.append("\(name).attributeCount = \(attributes)")
      for _ in 0..<attributes { lines.append("\(name).attributes[\"\(try text())\"] = \"\(try text())\"") }
    }
    #expect(offset == table.endIndex, "bytes after the last track")
    return lines
  }

  @Test("A catalog of the fixture songs has the golden file's magic, version, header fields and track table")
  func header() throws {
    let fingerprinter = ReferenceFingerprinter(parameters: FingerprintParameters())
    let builder = CatalogBuilder(parameters: fingerprinter.parameters)
    for name in ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"] {
      let path = Fixtures.music(name).path
      let track = try #require(Fixtures.musicTracks[name])
      builder.add(
        signature: try fingerprinter.signature(ofFileAt: path), key: try ReferenceFingerprinter.key(ofFileAt: path),
        sourcePath: path,
        metadata: TrackMetadata(
          title: track.title, artist: track.artist, isrc: track.isrc,
          attributes: name == "catalog-c.ogg" ? ["language": "instrumental", "MAPL": "M"] : [:]))
    }
    let folder = try TemporaryDirectory(prefix: "catalog-header")
    let url = folder.file("fixtures.bmcat")
    try builder.build().write(to: url)

    let bytes = [UInt8](try Data(contentsOf: url))
    func uint32(at offset: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
    let headerLength = Int(uint32(at: 12))
    let header = try JSONDecoder().decode(Value.self, from: Data(bytes[16..<(16 + headerLength)]))
    struct Sizes: Decodable { var trackTable: Catalog.TrackTableGeometry }
    let table = try JSONDecoder().decode(Sizes.self, from: Data(bytes[16..<(16 + headerLength)])).trackTable
    let tableStart = (16 + headerLength + 15) / 16 * 16
    let tableLines = try Self.trackTableLines(bytes[tableStart..<(tableStart + table.bytes)], count: table.count)
    let magic = bytes[0..<8].map { $0 < 0x20 ? String(format: "\\x%02x", $0) : String(UnicodeScalar($0)) }.joined()
    let lines = ["magic = \(magic)", "version = \(uint32(at: 8))"] + header.lines("") + tableLines
    let text = lines.joined(separator: "\n") + "\n"
    let mismatch = try Golden.mismatch(text, file: "catalog/header.txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }
}
