import TestSupport
import Testing

@testable import Matcher

@Suite("CatalogIndex")
struct CatalogIndexTests {
  typealias Entry = (hash: UInt32, position: UInt32)

  /// Seeded entries: `count` postings over `distinct` hashes of `hashBits` bits, positions below `maxPosition`.
  static func entries(count: Int, distinct: Int, hashBits: Int, maxPosition: UInt32, seed: UInt64) -> [Entry] {
    var generator = SeededGenerator(seed: seed)
    let hashes = (0..<distinct).map { _ in UInt32.random(in: 0..<(1 << UInt32(hashBits)), using: &generator) }
    return (0..<count).map { _ in
      (hashes.randomElement(using: &generator)!, UInt32.random(in: 0..<maxPosition, using: &generator))
    }
  }

  static func sorted(_ entries: [Entry]) -> [[UInt32]] {
    entries.map { [$0.hash, $0.position] }.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
  }

  static func postings(of hash: UInt32, in index: CatalogIndex) -> [UInt32] {
    var out: [UInt32] = []
    index.forEachPosting(of: hash) { out.append($0) }
    return out.sorted()
  }

  @Test(
    "Every posting is found under its own hash and under no other",
    arguments: [(19, 20_000), (24, 5_000), (12, 300)])
  func lookups(hashBits: Int, count: Int) {
    let maxPosition = UInt32(1) << UInt32(32 - hashBits + 10)  // leaves room for the residual bits
    let entries = Self.entries(
      count: count, distinct: count / 5, hashBits: hashBits, maxPosition: min(maxPosition, 1 << 20), seed: 42)
    let index = CatalogIndex.build(hashBits: hashBits, entries: entries)
    var expected: [UInt32: [UInt32]] = [:]
    for e in entries { expected[e.hash, default: []].append(e.position) }
    for (hash, positions) in expected {
      #expect(Self.postings(of: hash, in: index) == positions.sorted())
    }
    var generator = SeededGenerator(seed: 7)
    var absent = 0
    while absent < 200 {
      let hash = UInt32.random(in: 0..<(1 << UInt32(hashBits)), using: &generator)
      guard expected[hash] == nil else { continue }
      #expect(Self.postings(of: hash, in: index).isEmpty)
      absent += 1
    }
    #expect(index.postings.count == count)
    #expect(index.bytes == index.directory.bytes + index.postings.count * 4)
  }

  @Test("entries() gives back exactly the entries the index was built from")
  func entriesRoundTrip() {
    let entries = Self.entries(count: 10_000, distinct: 3000, hashBits: 19, maxPosition: 1 << 20, seed: 3)
    let index = CatalogIndex.build(hashBits: 19, entries: entries)
    #expect(Self.sorted(index.entries()) == Self.sorted(entries))
  }

  @Test("A small index keys its directory by the whole hash, and then positions keep all 32 bits")
  func noResidualBits() {
    let entries: [Entry] = [(5, 0xFFFF_FFF0), (5, 7), (4095, 123_456_789), (0, 1)]
    let index = CatalogIndex.build(hashBits: 12, entries: entries)
    #expect(index.residualBits == 0)
    #expect(index.positionBits == 32)
    #expect(Self.postings(of: 5, in: index) == [7, 0xFFFF_FFF0])
    #expect(Self.postings(of: 4095, in: index) == [123_456_789])
    #expect(Self.sorted(index.entries()) == Self.sorted(entries))
  }

  @Test("The directory has from 2 up to 4 postings per slot, at least 2^12 slots, and never more slots than hashes")
  func directorySize() {
    for count in [0, 10, 1 << 14, 100_000, 1 << 20, 5_000_000, 40_000_000] {
      for hashBits in [19, 24] {
        let bits = CatalogIndex.directoryBits(hashBits: hashBits, postingCount: count)
        #expect(bits >= 12 || bits == hashBits)
        #expect(bits <= hashBits)
        if bits > 12 && bits < hashBits {
          let perSlot = Double(count) / Double(1 << bits)
          #expect(perSlot >= 2 && perSlot < 4, "\(count) postings in \(1 << bits) slots")
        }
      }
    }
  }

  @Test("An empty index finds nothing")
  func empty() {
    let index = CatalogIndex.build(hashBits: 19, entries: [])
    #expect(index.postings.isEmpty)
    #expect(index.entries().isEmpty)
    #expect(Self.postings(of: 12345, in: index).isEmpty)
  }
}
