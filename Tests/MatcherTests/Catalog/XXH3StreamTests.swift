import TestSupport
import Testing

@testable import Matcher

@Suite("XXH3Stream")
struct XXH3StreamTests {
  /// Byte i of a test input: (31 i + 7) mod 256.
  static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

  /// XXH3-64 of `bytes(n)`, from Python's `xxhash` 4.1.0 (xxHash 0.8.4, built apart from Debian's 0.8.1 library):
  /// `xxhash.xxh3_64_intdigest(bytes((i * 31 + 7) & 0xFF for i in range(n)))`. The lengths cross each of XXH3's
  /// paths (up to 16, 128 and 240 bytes, then stripes and blocks).
  static let known: [(length: Int, value: UInt64)] = [
    (0, 0x2D06_8005_38D3_94C2), (1, 0x4C5C_CA45_D0F4_811F), (3, 0x15F7_093B_173D_005C),
    (16, 0x7E48_4C18_D748_95D0), (17, 0x208B_DE5E_E2BE_D407), (128, 0xF92B_70EA_A21A_6288),
    (129, 0xF8F7_6713_F2BB_60FA), (240, 0xCCC7_3751_72C4_1F03), (241, 0x0B3B_6309_48CE_4A00),
    (1000, 0x9897_65D0_EA7A_5ECD), (65536, 0xCF18_8822_0487_98B0), (100_000, 0xCCF9_0DF7_E7E3_7036),
  ]

  @Test("Its values are XXH3-64's, as another build of xxHash computes them, at every length of XXH3's paths")
  func matchesAnotherBuildOfXXHash() {
    for (length, value) in Self.known {
      let computed = Self.bytes(length).withUnsafeBytes { XXH3Stream.of($0) }
      #expect(computed == value, "\(length) bytes")
    }
  }

  @Test("Bytes given in pieces of any sizes give the value of the whole")
  func piecesGiveTheWholesValue() {
    var generator = SeededGenerator(seed: 12)
    let data = Self.bytes(100_000)
    for _ in 0..<20 {
      let stream = XXH3Stream()
      var start = 0
      data.withUnsafeBytes { raw in
        while start < raw.count {
          let end = min(raw.count, start + Int.random(in: 0...9_000, using: &generator))
          stream.add(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
          start = end
        }
      }
      #expect(stream.value == 0xCCF9_0DF7_E7E3_7036)
    }
  }

  @Test("Any one byte changed changes the value")
  func anyByteChangedChangesTheValue() {
    let data = Self.bytes(1_000)
    let original = data.withUnsafeBytes { XXH3Stream.of($0) }
    for position in data.indices {
      var damaged = data
      damaged[position] ^= 0x10
      #expect(damaged.withUnsafeBytes { XXH3Stream.of($0) } != original, "byte \(position)")
    }
  }
}
