import Common
import TestSupport
import Testing

@testable import Matcher

@Suite("StreamMatcher's lookups of postings within ranges")
struct StreamMatcherPostingRangesTests {
  /// A seeded random catalog of `parameters` (`CatalogBuilderLowMemoryTests.signatures`).
  static func catalog(_ parameters: FingerprintParameters, seed: UInt64) -> Catalog {
    let builder = CatalogBuilder(parameters: parameters)
    for (i, s) in CatalogBuilderLowMemoryTests.signatures(parameters, count: 40, seed: seed).enumerated() {
      builder.add(signature: s, key: "track-\(i)", sourcePath: "random/\(i)", metadata: TrackMetadata(title: "\(i)"))
    }
    return try! builder.build()
  }

  /// An index of 12-bit hashes whose lists hold up to 3,000 postings each, longer than
  /// `FencedLowerBounds.maxPostingsSearchedAtOnce`, as a 10,000 h catalog's common hashes do.
  static func longListCatalog(seed: UInt64) -> Catalog {
    var generator = SeededGenerator(seed: seed)
    var entries: [(hash: UInt32, position: UInt32)] = []
    for hash in 0..<UInt32(1 << 12) {
      let count = hash % 7 == 0 ? Int(generator.next() % 3000) : Int(generator.next() % 40)
      for _ in 0..<count { entries.append((hash, UInt32(generator.next() % 2_000_000))) }
    }
    entries.sort { ($0.hash, $0.position) < ($1.hash, $1.position) }
    return Catalog(
      parameters: FingerprintParameters(), tracks: [], index: CatalogIndex.build(hashBits: 12, entries: entries),
      stopHashCap: 0, triplets: nil)
  }

  @Test(
    "Lookups run together give each request's postings in its range, in order, as lookups one after another do",
    arguments: [(0, 1), (1, 2), (1, 3), (2, 4)])
  func sameAsOneAfterAnother(parameterSet: Int, seed: UInt64) {
    let catalog =
      parameterSet == 2
      ? Self.longListCatalog(seed: seed)
      : Self.catalog(CatalogBuilderLowMemoryTests.parameterSets[parameterSet], seed: 30 + seed)
    // Both ways of storing postings: in place per hash (searched, in short lists and long ones), and with residual
    // hash bits (read whole).
    #expect((catalog.index.residualBits == 0) == (parameterSet >= 1))
    let matcher = StreamMatcher(catalog: catalog, sink: nil)
    var generator = SeededGenerator(seed: seed)
    let hashes = UInt64(1) << UInt64(catalog.index.hashBits)
    let frames = parameterSet == 2 ? 2_000_000 : UInt64(matcher.catalogFrames)
    var postingsFound = 0
    for _ in 0..<20 {
      // Hashes of the catalog's postings and any others; ranges narrow and wide, anywhere on the axis and past it.
      let requests = (0..<Int(generator.next() % 300)).map { _ in
        let center = UInt32(generator.next() % (frames + 100))
        let radius = UInt32([0, 1, 12, 400, 100_000][Int(generator.next() % 5)])
        return StreamMatcher.PostingRangeRequest(
          hash: UInt32(generator.next() % hashes),
          range: (center > radius ? center - radius : 0)...(center &+ radius < center ? .max : center + radius))
      }
      var expected: [[UInt32]] = []
      for (i, r) in requests.enumerated() {
        catalog.index.forEachPosting(of: r.hash, in: r.range) { expected.append([UInt32(i), $0]) }
      }
      var found: [[UInt32]] = []
      matcher.forEachPosting(inRanges: requests) { found.append([UInt32($0), $1]) }
      #expect(found == expected)
      postingsFound += found.count
    }
    // The requests' ranges held postings to walk, not only empty stretches.
    #expect(postingsFound > 100)
  }
}
