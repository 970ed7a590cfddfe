import TestSupport
import Testing

@testable import Matcher

@Suite("Checksum64")
struct Checksum64Tests {
  /// Seeded pseudo-random bytes.
  static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
  }

  @Test("The same bytes give the same checksum, whether the collection is contiguous or not")
  func deterministic() {
    let data = Self.bytes(1000)
    #expect(Checksum64.of(data) == Checksum64.of(Self.bytes(1000)))
    #expect(Checksum64.of(data) == Checksum64.of(data.lazy.map { $0 }))
    #expect(Checksum64.of(data[...]) == Checksum64.of(data))
  }

  @Test(
    "Changing any one byte changes the checksum, in the 32-byte lanes and in the tail",
    arguments: [1, 7, 8, 31, 32, 33, 64, 100])
  func anyChangedByteIsDetected(length: Int) {
    let data = Self.bytes(length, seed: UInt64(length))
    let original = Checksum64.of(data)
    for position in 0..<length {
      for mask: UInt8 in [0x01, 0x10, 0x80, 0xFF] {
        var damaged = data
        damaged[position] ^= mask
        #expect(Checksum64.of(damaged) != original, "byte \(position) xor \(mask) of \(length) went unnoticed")
      }
    }
  }

  @Test("Length counts: runs of zero bytes of different lengths all differ")
  func lengthMatters() {
    let sums = (0..<100).map { Checksum64.of([UInt8](repeating: 0, count: $0)) }
    #expect(Set(sums).count == sums.count)
  }

  @Test("Order counts: swapping two 8-byte words, in one lane or across lanes, changes the checksum")
  func orderMatters() {
    let data = Self.bytes(96, seed: 7)
    let original = Checksum64.of(data)
    func swapped(_ a: Int, _ b: Int) -> [UInt8] {
      var out = data
      for i in 0..<8 { out.swapAt(a * 8 + i, b * 8 + i) }
      return out
    }
    #expect(Checksum64.of(swapped(0, 4)) != original)  // both in lane a (words 0 and 4 of 32-byte blocks)
    #expect(Checksum64.of(swapped(0, 1)) != original)  // lanes a and b
    #expect(Checksum64.of(swapped(2, 11)) != original)
  }

  @Test(
    "Bytes added in pieces of any sizes give the checksum of all of them at once", arguments: [0, 1, 31, 32, 33, 1000])
  func stream(length: Int) {
    let data = Self.bytes(length, seed: 11)
    var generator = SeededGenerator(seed: UInt64(length))
    for _ in 0..<20 {
      var stream = Checksum64.Stream()
      var offset = 0
      data.withUnsafeBytes { raw in
        while offset < length {
          let n = min(length - offset, Int(generator.next() % 70))
          stream.add(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)]))
          offset += n
        }
      }
      #expect(stream.value == Checksum64.of(data))
    }
  }

  @Test("The checksum of fixed bytes is the one every catalog file written so far carries")
  func fixedValues() {
    #expect(Checksum64.of(Self.bytes(0)) == 0x9221_86E1_CBD5_014A)
    #expect(Checksum64.of(Self.bytes(45)) == 0x21FA_DC9C_BB4F_75D9)
    #expect(Checksum64.of(Self.bytes(1000)) == 0xD33B_9818_E2E4_D6CB)
  }
}
