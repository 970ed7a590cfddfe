import TestSupport
import Testing

@testable import Matcher

@Suite("PackedReferenceHashes")
struct PackedReferenceHashesTests {
  @Test("Hashes in frame order come back as given, one word each")
  func frameOrder() {
    var generator = SeededGenerator(seed: 3)
    var frame: UInt32 = 0
    let hashes = (0..<5_000).map { _ in
      frame += UInt32(generator.next() % 4)
      return ReferenceHash(hash: UInt32(generator.next() % (1 << 19)), frame: frame)
    }
    let packed = PackedReferenceHashes(hashes, hashBits: 19)
    #expect(packed.hashes == hashes)
    #expect(packed.count == hashes.count)
    #expect(packed.words.count == hashes.count)
  }

  @Test(
    "Hashes out of frame order, long silences and hashes as wide as the word come back as given",
    arguments: [19, 31, 32])
  func escapes(hashBits: Int) {
    var generator = SeededGenerator(seed: UInt64(hashBits))
    let widest = hashBits == 32 ? UInt64(UInt32.max) : (UInt64(1) << UInt64(hashBits)) - 1
    let frames: [UInt32] = [0, 0, 5, 3, 9_000, 9_001, 200_000, 7, UInt32.max, UInt32.max, 0]
    let hashes =
      frames.map { ReferenceHash(hash: UInt32(generator.next() % (widest + 1)), frame: $0) }
      + [ReferenceHash(hash: UInt32(widest), frame: 1)]
    var appended = PackedReferenceHashes(hashBits: hashBits)
    for h in hashes { appended.append(hash: h.hash, frame: h.frame) }
    #expect(PackedReferenceHashes(hashes, hashBits: hashBits).hashes == hashes)
    #expect(appended.hashes == hashes)
    #expect(appended.count == hashes.count)
  }
}
