import TestSupport
import Testing

@testable import Matcher

@Suite("CatalogIndex merging")
struct CatalogIndexMergeTests {
  typealias Entry = (hash: UInt32, position: UInt32)

  /// Seeded entries in position order from `firstPosition`, over `distinct` hashes of 19 bits.
  static func entries(count: Int, distinct: Int, from firstPosition: UInt32, seed: UInt64) -> [Entry] {
    var generator = SeededGenerator(seed: seed)
    let hashes = (0..<distinct).map { _ in UInt32.random(in: 0..<(1 << 19), using: &generator) }
    return (0..<count).map { i in (hashes.randomElement(using: &generator)!, firstPosition + UInt32(i / 3)) }
  }

  static func arrays(_ index: CatalogIndex) -> (directory: [UInt32], postings: [UInt32], geometry: [Int]) {
    (Array(index.directory), Array(index.postings), [index.hashBits, index.directoryBits, index.positionBits])
  }

  @Test(
    "Merging entries after the index's own gives the index built from all of them, array for array",
    arguments: [(1_000, 500), (10_000, 30_000), (20_000, 100)])
  func sameAsBuild(baseCount: Int, addedCount: Int) {
    let old = Self.entries(count: baseCount, distinct: baseCount / 4, from: 0, seed: 7)
    let added = Self.entries(count: addedCount, distinct: addedCount / 4 + 1, from: 100_000, seed: 8)
    let merged = CatalogIndex.build(hashBits: 19, entries: old).merging(added, dropping: [])
    let built = CatalogIndex.build(hashBits: 19, entries: old + added)
    let (m, b) = (Self.arrays(merged), Self.arrays(built))
    #expect(m.geometry == b.geometry)
    #expect(m.directory == b.directory)
    #expect(m.postings == b.postings)
  }

  @Test("The directory grows when the merged postings need it, and every posting is packed again for it")
  func directoryGrows() {
    let old = Self.entries(count: 10_000, distinct: 3_000, from: 0, seed: 1)
    let added = Self.entries(count: 40_000, distinct: 9_000, from: 50_000, seed: 2)
    let base = CatalogIndex.build(hashBits: 19, entries: old)
    let merged = base.merging(added, dropping: [])
    #expect(merged.directoryBits > base.directoryBits)
    #expect(
      Self.arrays(merged).postings == Self.arrays(CatalogIndex.build(hashBits: 19, entries: old + added)).postings)
  }

  @Test("Dropped hashes lose their postings, the index's own and the added ones")
  func dropping() {
    let old = Self.entries(count: 5_000, distinct: 800, from: 0, seed: 3)
    let added = Self.entries(count: 2_000, distinct: 400, from: 20_000, seed: 4)
    let dropped: Set<UInt32> = [old[0].hash, old[10].hash, added[5].hash]
    let merged = CatalogIndex.build(hashBits: 19, entries: old).merging(
      added.filter { !dropped.contains($0.hash) }, dropping: dropped)
    let built = CatalogIndex.build(hashBits: 19, entries: (old + added).filter { !dropped.contains($0.hash) })
    #expect(Self.arrays(merged).directory == Self.arrays(built).directory)
    #expect(Self.arrays(merged).postings == Self.arrays(built).postings)
    for hash in dropped {
      var found = 0
      merged.forEachPosting(of: hash) { _ in found += 1 }
      #expect(found == 0)
    }
  }

  @Test(
    "postingCountsByHash counts every posting under its hash, from the postings or (one hash a slot) the directory",
    arguments: [19, 12])
  func counts(hashBits: Int) {
    let entries = Self.entries(count: 3_000, distinct: 200, from: 0, seed: 5).map {
      (hash: $0.hash & ((1 << UInt32(hashBits)) - 1), position: $0.position)
    }
    var expected = [UInt32](repeating: 0, count: 1 << hashBits)
    for e in entries { expected[Int(e.hash)] += 1 }
    let index = CatalogIndex.build(hashBits: hashBits, entries: entries)
    #expect(index.residualBits == (hashBits == 12 ? 0 : hashBits - 12))
    #expect(index.postingCountsByHash() == expected)
  }
}
