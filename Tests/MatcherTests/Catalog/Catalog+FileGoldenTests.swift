import Common
import Foundation
import TestSupport
import Testing

@testable import Matcher

/// The header of a catalog file of the three fixture songs, as text in
/// `Tests/Fixtures/golden/catalog/header.txt`: the magic, the version and every field of the JSON header, one per
/// line, so that a change to the file format (a field added, renamed or moved, a parameter's default) has to update
/// the file on purpose (`UPDATE_GOLDEN=1`). Fractions are written to three decimals and the things that differ from
/// run to run (when an item was added, where its file lies) are masked, so the text depends on the format, not on
/// float bits or the machine.
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

  @Test("A catalog of the fixture songs has the golden file's magic, version and header fields")
  func header() throws {
    let fingerprinter = ReferenceFingerprinter(parameters: FingerprintParameters())
    let builder = CatalogBuilder(parameters: fingerprinter.parameters)
    for name in ["catalog-a.ogg", "catalog-b.ogg", "catalog-c.ogg"] {
      let path = Fixtures.music(name).path
      let track = try #require(Fixtures.musicTracks[name])
      builder.add(
        signature: try fingerprinter.signature(ofFileAt: path), key: try ReferenceFingerprinter.key(ofFileAt: path),
        sourcePath: path, metadata: TrackMetadata(title: track.title, artist: track.artist, isrc: track.isrc))
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
    let magic = bytes[0..<8].map { $0 < 0x20 ? String(format: "\\x%02x", $0) : String(UnicodeScalar($0)) }.joined()
    let text = (["magic = \(magic)", "version = \(uint32(at: 8))"] + header.lines("")).joined(separator: "\n") + "\n"
    let mismatch = try Golden.mismatch(text, file: "catalog/header.txt")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }
}
