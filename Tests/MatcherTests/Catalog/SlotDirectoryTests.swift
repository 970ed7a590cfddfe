import TestSupport
import Testing

@testable import Matcher

@Suite("SlotDirectory")
struct SlotDirectoryTests {
  /// A plain directory (offsets that never decrease, from 0) of `slots` slots holding `postingsPerSlot` postings each on
  /// average, with a few slots far fuller (`heavy` postings), as a pair index's common hashes are.
  static func plain(slots: Int, postingsPerSlot: Int, heavy: Int, seed: UInt64) -> [UInt32] {
    var generator = SeededGenerator(seed: seed)
    var out: [UInt32] = [0]
    out.reserveCapacity(slots + 1)
    for _ in 0..<slots {
      let n =
        heavy > 0 && Int.random(in: 0..<1000, using: &generator) == 0
        ? heavy : Int.random(in: 0...(2 * postingsPerSlot), using: &generator)
      out.append(out.last! + UInt32(n))
    }
    return out
  }

  @Test(
    "Every offset reads back as the plain directory's, at the largest block size whose offsets fit",
    arguments: [
      (1 << 12, 4, 0), (1 << 16, 4, 0), (1 << 16, 8, 0), (1 << 14, 0, 0), (1 << 15, 4, 40_000), (1 << 12, 200, 0),
      (1 << 12, 1000, 70_000), (1 << 12, 40_000, 0), (1, 0, 0), (6, 3, 0),
    ] as [(Int, Int, Int)])
  func readsBack(slots: Int, postingsPerSlot: Int, heavy: Int) {
    for seed: UInt64 in 1...3 {
      let plain = Self.plain(slots: slots, postingsPerSlot: postingsPerSlot, heavy: heavy, seed: seed)
      let storage = SlotDirectoryStorage(copying: plain)
      let directory = storage.directory
      #expect(Array(directory) == plain, "seed \(seed)")
      #expect(directory.count == plain.count)
      let bits = directory.blockBits
      #expect((0...SlotDirectory.maxBlockBits).contains(bits))
      // Each block's offsets fit at this size, and not at the next larger one (unless at the largest).
      func fits(_ b: Int) -> Bool {
        stride(from: 0, to: plain.count, by: 1 << b).allSatisfy { first in
          plain[min(first + (1 << b), plain.count) - 1] - plain[first] <= UInt32(UInt16.max)
        }
      }
      #expect(fits(bits), "seed \(seed)")
      #expect(bits == SlotDirectory.maxBlockBits || !fits(bits + 1), "seed \(seed): \(bits) bits")
      #expect(directory.blockStarts.count == SlotDirectory.blockCount(count: plain.count, blockBits: bits))
      #expect(directory.bytes == 4 * directory.blockStarts.count + (2 * plain.count + 3) / 4 * 4)
      // A slot's offset lies at `baseAddress + slot` (what a lookup asks for ahead).
      for slot in [0, plain.count / 2, plain.count - 1] {
        #expect((directory.baseAddress! + slot).pointee == directory.offsets[slot])
        #expect(directory.blockStarts[slot >> bits] + UInt32((directory.baseAddress! + slot).pointee) == plain[slot])
      }
    }
  }

  @Test(
    "A directory is surely never decreasing when built, never when a slot decreases, and exactly so unless sums wrap")
  func surelyNeverDecreases() {
    for index in 0..<PropertyCheck.cases(300) {
      var generator = PropertyCheck.generator(case: index)
      let origin = PropertyCheck.origin(case: index)
      let plain = Self.plain(
        slots: Int.random(in: 1...6000, using: &generator),
        postingsPerSlot: [0, 4, 300].randomElement(using: &generator)!,
        heavy: [0, 70_000].randomElement(using: &generator)!, seed: generator.next())
      let storage = SlotDirectoryStorage(copying: plain)
      let built = storage.directory
      #expect(built.surelyNeverDecreases(), "\(origin)")
      // Damaged as a file can be: a block start or an offset anywhere, near its value or anything, up to the limits.
      var starts = Array(built.blockStarts)
      var offsets = Array(built.offsets)
      for _ in 0..<Int.random(in: 1...2, using: &generator) {
        if Bool.random(using: &generator) {
          // The last block half the time: only there can sums that wrap go unseen by the next block's start.
          let b =
            Bool.random(using: &generator) ? starts.count - 1 : Int.random(in: 0..<starts.count, using: &generator)
          starts[b] =
            [
              starts[b] &+ UInt32.random(in: 0...3, using: &generator),
              starts[b] &- UInt32.random(in: 0...3, using: &generator),
              UInt32.max - UInt32.random(in: 0...1_000, using: &generator),
              UInt32.random(in: 0...UInt32.max, using: &generator),
            ].randomElement(using: &generator)!
        } else {
          let i = Int.random(in: 0..<offsets.count, using: &generator)
          offsets[i] =
            Bool.random(using: &generator)
            ? offsets[i] &+ UInt16.random(in: 0...2, using: &generator) &- 1
            : UInt16.random(in: 0...UInt16.max, using: &generator)
        }
      }
      starts.withUnsafeBufferPointer { blockStarts in
        offsets.withUnsafeBufferPointer { offsets in
          let damaged = SlotDirectory(blockBits: built.blockBits, blockStarts: blockStarts, offsets: offsets)
          let values = Array(damaged)
          let neverDecreases = zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
          let wraps = offsets.indices.contains {
            UInt64(blockStarts[$0 >> built.blockBits]) + UInt64(offsets[$0]) > UInt64(UInt32.max)
          }
          let sure = damaged.surelyNeverDecreases()
          #expect(!sure || neverDecreases, "never sure of one that decreases: \(origin)")
          #expect(wraps || sure == neverDecreases, "exact unless a sum wraps: \(origin)")
        }
      }
    }
  }

  @Test("A sparse directory takes blocks of 4,096 slots: 2 bytes a slot and a block start per 4,096 slots")
  func sparseIsHalfThePlainSize() {
    let plain = Self.plain(slots: 1 << 20, postingsPerSlot: 4, heavy: 0, seed: 9)
    let directory = SlotDirectoryStorage(copying: plain).directory
    #expect(directory.blockBits == 12)
    #expect(directory.bytes == 4 * ((1 << 8) + 1) + (2 * ((1 << 20) + 1) + 3) / 4 * 4)
    #expect(directory.bytes * 2 < 4 * plain.count + 4 * 1024)
  }

  @Test("An index built with directories of each block size finds every posting as a plain directory would")
  func indexLookups() {
    // 19-bit hashes over 2^12 slots: each slot holds about 100 postings (blocks of up to 512 slots); 12-bit hashes
    // with 400,000 postings: 100 a slot.
    for (hashBits, count) in [(19, 400_000), (12, 400_000), (24, 60_000)] {
      let entries = CatalogIndexTests.entries(
        count: count, distinct: count / 3, hashBits: hashBits, maxPosition: 1 << 18, seed: UInt64(hashBits))
      let index = CatalogIndex.build(hashBits: hashBits, entries: entries)
      var expected: [UInt32: [UInt32]] = [:]
      for e in entries { expected[e.hash, default: []].append(e.position) }
      for (hash, positions) in expected.prefix(3000) {
        #expect(CatalogIndexTests.postings(of: hash, in: index) == positions.sorted(), "\(hashBits) bits")
      }
      // The directory counts each slot's postings, as a plain one does.
      var perSlot = [UInt32](repeating: 0, count: index.directory.count)
      for e in entries { perSlot[Int(e.hash >> UInt32(index.residualBits)) + 1] += 1 }
      for i in 1..<perSlot.count { perSlot[i] += perSlot[i - 1] }
      #expect(Array(index.directory) == perSlot, "\(hashBits) bits")
    }
  }
}
