import TestSupport
import Testing

@testable import Matcher

@Suite("IndexMerge")
struct IndexMergeTests {
  typealias Entry = (hash: UInt32, position: UInt32)

  /// Seeded entries in position order from `firstPosition`, over `distinct` hashes of `hashBits` bits.
  static func entries(
    count: Int, distinct: Int, hashBits: Int, from firstPosition: UInt32, using generator: inout SeededGenerator
  )
    -> [Entry]
  {
    let hashes = (0..<max(1, distinct)).map { _ in UInt32.random(in: 0..<(1 << UInt32(hashBits)), using: &generator) }
    return (0..<count).map { i in (hashes.randomElement(using: &generator)!, firstPosition + UInt32(i / 3)) }
  }

  /// The merged postings as `forEachRun` hands them over, run after run.
  static func streamed(_ merge: IndexMerge) -> (postings: [UInt32], runs: [Int]) {
    var postings: [UInt32] = []
    var runs: [Int] = []
    merge.forEachRun {
      postings.append(contentsOf: $0)
      runs.append($0.count)
    }
    return (postings, runs)
  }

  @Test(
    "Merged a run at a time, an index is the one build makes of its entries that no cut span holds, moved down, and the added ones, less the dropped, whether its directory keeps its size, grows or shrinks, and whether the merge counts the kept postings or is given them per hash",
    arguments: 1...32)
  func sameAsBuild(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let hashBits = [13, 19, 22].randomElement(using: &generator)!
    let baseCount = Int.random(in: 0...60_000, using: &generator)
    let addedCount = [0, 50, Int.random(in: 0...150_000, using: &generator)].randomElement(using: &generator)!
    let old = Self.entries(
      count: baseCount, distinct: baseCount / Int.random(in: 1...8, using: &generator), hashBits: hashBits, from: 0,
      using: &generator)
    let base = CatalogIndex.build(hashBits: hashBits, entries: old)
    // None, a few, or most of the old hashes dropped (most: the directory shrinks).
    let oldHashes = Array(Set(old.map(\.hash)))
    let share = [0.0, 0.01, 0.9].randomElement(using: &generator)!
    let dropped = Set(oldHashes.filter { _ in Double.random(in: 0..<1, using: &generator) < share })
    // No cut, or up to three spans of the base's axis (positions run to a third of its count).
    let axisEnd = UInt32(baseCount / 3 + 1)
    let cut =
      Bool.random(using: &generator)
      ? AxisCut()
      : AxisCut(
        removing: (0..<Int.random(in: 1...3, using: &generator)).map { i in
          let start = axisEnd / 3 * UInt32(i) + UInt32.random(in: 0...(axisEnd / 6), using: &generator)
          return start..<(start + UInt32.random(in: 0...(axisEnd / 6), using: &generator))
        })
    let added = Self.entries(
      count: addedCount, distinct: addedCount / 4 + 1, hashBits: hashBits, from: UInt32(baseCount) + 1_000,
      using: &generator
    ).filter { !dropped.contains($0.hash) }
    // The base's entries as it holds them (slot by slot), as `build` would be given them to make it again.
    let kept = base.entries().compactMap { e -> Entry? in
      guard !dropped.contains(e.hash), let position = cut.moved(e.position) else { return nil }
      return (e.hash, position)
    }
    let built = CatalogIndex.build(hashBits: hashBits, entries: kept + added)
    // The base's postings per hash that the cut keeps, dropped hashes included, as the builder counts them.
    var keptCounts = [UInt32](repeating: 0, count: 1 << hashBits)
    for e in base.entries() where cut.moved(e.position) != nil { keptCounts[Int(e.hash)] += 1 }

    for counts in [nil, keptCounts] {
      let merge = IndexMerge(base: base, cutting: cut, adding: added, dropping: dropped, keptCounts: counts)
      Self.expect(merge, toBe: built)
    }
  }

  static func expect(_ merge: IndexMerge, toBe built: CatalogIndex) {
    #expect(
      [merge.hashBits, merge.directoryBits, merge.positionBits] == [
        built.hashBits, built.directoryBits, built.positionBits,
      ])
    #expect(merge.postingCount == built.postings.count)
    let directory = merge.directory()
    withExtendedLifetime(directory) { #expect(Array(directory.directory) == Array(built.directory)) }
    let (postings, runs) = Self.streamed(merge)
    #expect(postings == Array(built.postings))
    #expect(runs.allSatisfy { $0 > 0 && $0 <= IndexMerge.stagedPostings })
    let materialized = merge.materialized()
    #expect(Array(materialized.postings) == Array(built.postings))
    #expect(Array(materialized.directory) == Array(built.directory))
  }

  @Test("An index merged with nothing added or dropped goes out as it is")
  func nothingAdded() {
    var generator = SeededGenerator(seed: 99)
    let old = Self.entries(count: 200_000, distinct: 40_000, hashBits: 22, from: 0, using: &generator)
    let base = CatalogIndex.build(hashBits: 22, entries: old)
    let merge = IndexMerge(base: base, adding: [], dropping: [])
    let (postings, runs) = Self.streamed(merge)
    #expect(postings == Array(base.postings))
    #expect(runs.count == (200_000 + IndexMerge.stagedPostings - 1) / IndexMerge.stagedPostings)
  }
}
