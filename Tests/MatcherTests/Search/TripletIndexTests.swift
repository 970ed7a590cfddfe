import TestSupport
import Testing

@testable import Matcher

@Suite("TripletIndex")
struct TripletIndexTests {
  /// The definition, checked pair by pair: two postings whose targets are within a frame, with different hashes and
  /// anchors and target pitches within the two quantization steps, give one posting under their key.
  static func bruteForce(_ entries: [(hash: UInt32, position: UInt32)], layout: HashLayout, keyBits: Int)
    -> [UInt64]
  {
    let frameMask = UInt32(1 << layout.frameBits) - 1
    func pitch(_ h: UInt32) -> Float {
      Float(h >> UInt32(layout.frameBits + layout.intervalBits)) * layout.anchorStep
        + Float((h >> UInt32(layout.frameBits)) & UInt32((1 << layout.intervalBits) - 1)) * layout.intervalStep
    }
    var out: [UInt64] = []
    for i in entries.indices {
      for j in entries.indices where j > i {
        let (a, b) = (entries[i], entries[j])
        let ta = a.position + (a.hash & frameMask)
        let tb = b.position + (b.hash & frameMask)
        guard abs(Int64(ta) - Int64(tb)) <= 1, a.hash != b.hash, a.position != b.position,
          abs(pitch(a.hash) - pitch(b.hash)) < layout.anchorStep + layout.intervalStep
        else { continue }
        let key = TripletIndex.key(a.hash, b.hash, bits: keyBits)
        out.append(UInt64(key) << 32 | UInt64(a.hash < b.hash ? ta : tb))
      }
    }
    return out.sorted()
  }

  @Test("The derived index holds exactly the agreeing pairs a pairwise check finds", arguments: [1, 2, 3, 4])
  func derivedIndexHoldsExactlyTheAgreeingPairs(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let layout = HashLayout(FingerprintParameters())
    // Few distinct hash values and a short frame axis, so that many postings agree; positions in frame order.
    let hashes = (0..<40).map { _ in UInt32(generator.next() % (1 << UInt64(layout.totalBits))) | 1 }
    var entries: [(hash: UInt32, position: UInt32)] = []
    for _ in 0..<1500 {
      entries.append((hashes[Int(generator.next() % 40)], UInt32(generator.next() % 3000)))
    }
    entries.sort { $0.position < $1.position }
    let index = CatalogIndex.build(hashBits: layout.totalBits, entries: entries)
    let triplets = TripletIndex.derive(from: index, layout: layout)
    var found: [UInt64] = []
    triplets.index.forEachEntry { key, target in found.append(UInt64(key) << 32 | UInt64(target)) }
    let expected = Self.bruteForce(index.entries(), layout: layout, keyBits: triplets.index.hashBits)
    #expect(!expected.isEmpty)
    #expect(found.sorted() == expected)
    #expect(triplets.index.positionBits >= 12)
  }

  @Test("A lookup by two hashes, in either order, returns the target of their agreeing pair")
  func lookupFindsTheTargetInEitherOrder() {
    let layout = HashLayout(FingerprintParameters())
    // Anchors at frames 100 and 105 pair with one target at frame 120 (distances 20 and 15): same target pitch.
    let first = layout.hash(anchorPitch: 10, interval: 5, frames: 20)!
    let second = layout.hash(anchorPitch: 12, interval: 3, frames: 15)!
    let index = CatalogIndex.build(hashBits: layout.totalBits, entries: [(first, 100), (second, 105)])
    let triplets = TripletIndex.derive(from: index, layout: layout)
    var targets: [UInt32] = []
    triplets.forEachTarget(of: first, second) { targets.append($0) }
    var reversed: [UInt32] = []
    triplets.forEachTarget(of: second, first) { reversed.append($0) }
    #expect(targets == [120])
    #expect(reversed == [120])
    let unrelated = layout.hash(anchorPitch: 30, interval: -8, frames: 15)!
    var none: [UInt32] = []
    triplets.forEachTarget(of: first, unrelated) { none.append($0) }
    #expect(none.isEmpty)
  }
}
