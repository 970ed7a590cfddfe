import Foundation
import TestSupport
import Testing

@testable import Matcher

@Suite("Signature file")
struct SignatureTests {
  static func sample() throws -> Signature {
    let generator = SignatureGenerator(purpose: .query)
    try generator.append(SyntheticSong(seed: 21, seconds: 3).render(), sampleRate: 8000)
    return generator.signature()
  }

  /// Where the peaks start in an encoded signature: after magic, version, header length and header.
  static func peaksOffset(_ bytes: [UInt8]) -> Int {
    let headerLength = bytes[12..<16].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    return 16 + headerLength
  }

  /// The bytes with a new trailing checksum, as a file of ours would have.
  static func resealed(_ bytes: [UInt8]) -> Data {
    var body = Array(bytes.dropLast(8))
    withUnsafeBytes(of: Checksum64.of(body).littleEndian) { body.append(contentsOf: $0) }
    return Data(body)
  }

  @Test("A signature round-trips through its bytes and through a file")
  func roundTrip() throws {
    let signature = try Self.sample()
    #expect(!signature.peaks.isEmpty)
    #expect(try Signature(decoding: signature.encoded()) == signature)
    try withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("clip.bmsig")
      try signature.write(to: url)
      #expect(try Signature(contentsOf: url) == signature)
    }
  }

  @Test("The file is magic, version 2, header length, JSON header, 16 bytes per peak and an 8-byte checksum")
  func layout() throws {
    let signature = try Self.sample()
    let bytes = [UInt8](try signature.encoded())
    #expect(bytes.prefix(8).elementsEqual(Array("BMSIG\u{0}\u{0}\u{1}".utf8)))
    #expect(bytes[8..<12].elementsEqual([2, 0, 0, 0]))
    #expect(bytes.count == Self.peaksOffset(bytes) + 16 * signature.peaks.count + 8)
    let stored = bytes.suffix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    #expect(stored == Checksum64.of(bytes.dropLast(8)))
  }

  @Test("The header's keys are sorted, at every level, so that the same signature is always the same bytes")
  func sortedHeader() throws {
    let bytes = [UInt8](try Self.sample().encoded())
    let header = String(decoding: bytes[16..<Self.peaksOffset(bytes)], as: UTF8.self)
    func positions(of keys: [String]) -> [String.Index?] { keys.map { header.range(of: "\"\($0)\":")?.lowerBound } }
    let top = ["parameters", "sampleCount", "peakCount", "audibleStartSeconds", "audibleEndSeconds", "loudEndSeconds"]
      .sorted()
    let parameters = Mirror(reflecting: FingerprintParameters()).children.compactMap(\.label).sorted()
    #expect(parameters.count > 10)
    for keys in [top, parameters] {
      let found = positions(of: keys)
      #expect(!found.contains(nil), "every key is in the header: \(header)")
      let places = found.compactMap { $0 }
      #expect(places == places.sorted(), "keys in order: \(header)")
    }
  }

  @Test("A flipped byte in the header, the peaks or the checksum is caught by the checksum")
  func flippedByte() throws {
    let bytes = [UInt8](try Self.sample().encoded())
    let peaks = Self.peaksOffset(bytes)
    for position in [13, 20, peaks - 1, peaks, peaks + 5, bytes.count - 9, bytes.count - 8, bytes.count - 1] {
      var damaged = bytes
      damaged[position] ^= 0x40
      let error = #expect(throws: FormatError.self) { try Signature(decoding: Data(damaged), path: "damaged.bmsig") }
      #expect(error?.reason.contains("checksum") == true, "byte \(position): \(String(describing: error))")
      #expect(error?.description.hasPrefix("damaged.bmsig: ") == true)
    }
  }

  @Test("A truncated file is refused")
  func truncated() throws {
    let bytes = [UInt8](try Self.sample().encoded())
    for length in [bytes.count - 1, bytes.count - 8, bytes.count / 2, 20] {
      let error = #expect(throws: FormatError.self) { try Signature(decoding: Data(bytes.prefix(length))) }
      #expect(error?.reason.contains("checksum") == true, "\(length) bytes")
    }
    for length in [0, 5, 10] {
      #expect(throws: FormatError.self) { try Signature(decoding: Data(bytes.prefix(length))) }
    }
  }

  /// The bytes with the JSON header edited by `edit` (its length adjusted), resealed.
  static func withHeader(_ bytes: [UInt8], _ edit: (String) -> String) -> Data {
    let start = peaksOffset(bytes)
    let header = Array(edit(String(decoding: bytes[16..<start], as: UTF8.self)).utf8)
    var out = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(header.count).littleEndian) { out.append(contentsOf: $0) }
    return resealed(out + header + bytes[start...])
  }

  @Test(
    "A file whose checksum holds but whose header or peaks cannot be (written by hand) is refused, never trusted",
    arguments: [
      ("\"peakCount\":", "\"peakCount\":-1,\"x\":", "the header counts -1 peaks"),
      ("\"peakCount\":", "\"peakCount\":1099511627776,\"x\":", "the header counts 1099511627776 peaks"),
      ("\"sampleCount\":", "\"sampleCount\":-5,\"x\":", "a negative or endless length"),
      ("\"hopSizeSamples\":256", "\"hopSizeSamples\":0", "fingerprint parameters that cannot be"),
    ])
  func handMadeHeaderRefused(key: String, replacement: String, message: String) throws {
    let bytes = [UInt8](try Self.sample().encoded())
    // A count's old value stays behind as a value of the unknown key "x", which the header's decoder ignores.
    let data = Self.withHeader(bytes) { $0.replacingOccurrences(of: key, with: replacement) }
    let error = #expect(throws: FormatError.self) { try Signature(decoding: data, path: "hand.bmsig") }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }

  @Test("A peak at a bin that is not a number is refused")
  func nonNumberPeakRefused() throws {
    var bytes = [UInt8](try Self.sample().encoded())
    let bin = Self.peaksOffset(bytes) + 4
    withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { bytes.replaceSubrange(bin..<(bin + 4), with: $0) }
    let error = #expect(throws: FormatError.self) { try Signature(decoding: Self.resealed(bytes)) }
    #expect(error?.description.contains("peak 0") == true, "\(String(describing: error))")
  }

  @Test("Another format version is refused, naming the version")
  func otherVersion() throws {
    var bytes = [UInt8](try Self.sample().encoded())
    bytes[8] = 3
    let error = #expect(throws: FormatError.self) { try Signature(decoding: Self.resealed(bytes)) }
    #expect(error?.reason.contains("version 3") == true)
  }

  @Test("A version 1 file (whole-frame peaks, 12 bytes each) is still read, its peaks with no frame offset")
  func versionOne() throws {
    var parameters = FingerprintParameters()
    parameters.interpolatePeakTimes = false
    let generator = SignatureGenerator(parameters: parameters, purpose: .query)
    try generator.append(SyntheticSong(seed: 21, seconds: 3).render(), sampleRate: 8000)
    let signature = generator.signature()
    #expect(signature.peaks.allSatisfy { $0.frameOffset == 0 })
    // Version 1 wrote no `interpolatePeakTimes` in the header (it did not exist) and no offsets after the peaks.
    let bytes = [UInt8](try signature.encoded())
    let start = Self.peaksOffset(bytes)
    let header = String(decoding: bytes[16..<start], as: UTF8.self)
      .replacingOccurrences(of: #""interpolatePeakTimes":false,"#, with: "")
      .replacingOccurrences(of: #","interpolatePeakTimes":false"#, with: "")
    #expect(!header.contains("interpolatePeakTimes"))
    var old: [UInt8] = Array(bytes[0..<8]) + [1, 0, 0, 0]
    withUnsafeBytes(of: UInt32(header.utf8.count).littleEndian) { old.append(contentsOf: $0) }
    old += Array(header.utf8)
    for i in signature.peaks.indices { old += bytes[(start + 16 * i)..<(start + 16 * i + 12)] }
    old += [UInt8](repeating: 0, count: 8)
    let decoded = try Signature(decoding: Self.resealed(old))
    #expect(decoded == signature)
    #expect(decoded.parameters.interpolatePeakTimes == false)
  }

  @Test("A signature written before the loud end was measured reads as loud to its audible end")
  func withoutLoudEnd() throws {
    var signature = try Self.sample()
    signature.loudEndSeconds = signature.audibleEndSeconds - 1
    let bytes = [UInt8](try signature.encoded())
    let start = Self.peaksOffset(bytes)
    let header = String(decoding: bytes[16..<start], as: UTF8.self)
      .replacing(/"loudEndSeconds":[0-9.e+-]+,?/, with: "")
    #expect(!header.contains("loudEndSeconds"))
    var old: [UInt8] = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(header.utf8.count).littleEndian) { old.append(contentsOf: $0) }
    old += Array(header.utf8) + bytes[start...]
    let decoded = try Signature(decoding: Self.resealed(old))
    #expect(decoded.loudEndSeconds == signature.audibleEndSeconds)
    #expect(decoded.peaks == signature.peaks)
  }

  @Test("A file that is not a signature is refused as such")
  func notASignature() throws {
    let error = #expect(throws: FormatError.self) {
      try Signature(decoding: Data("hello, world: not a signature".utf8))
    }
    #expect(error?.reason.contains("magic") == true)
  }
}
