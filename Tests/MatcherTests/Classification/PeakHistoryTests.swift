import TestSupport
import Testing

@testable import Matcher

@Suite("PeakHistory")
struct PeakHistoryTests {
  static let parameters = FingerprintParameters()
  static var keepFrames: Int32 { Int32(ClassifierTuning.peakHistorySeconds * parameters.framesPerSecond) }

  /// The blocks of peaks the front end sends: up to `queryPeaksPerBlock` a block, in frame order, from a seed.
  static func blocks(count: Int, from firstBlock: Int = 0, seed: UInt64) -> [[Peak]] {
    var generator = SeededGenerator(seed: seed)
    let blockFrames = parameters.peakBlockFrames
    return (firstBlock..<(firstBlock + count)).map { block in
      let n = Int.random(in: 0...parameters.queryPeaksPerBlock, using: &generator)
      return (0..<n).map { _ in
        Peak(
          frame: Int32(block * blockFrames + Int.random(in: 0..<blockFrames, using: &generator)),
          bin: Float.random(in: 8...120, using: &generator), strength: Float.random(in: 0...30, using: &generator))
      }.sorted { $0.frame < $1.frame }
    }
  }

  /// What the history must give: every peak of the window that ends at the newest peak, then those of `from..<to`.
  static func expected(_ all: [Peak], from: Int32, to: Int32) -> [Peak] {
    guard let newest = all.last?.frame else { return [] }
    return all.filter { $0.frame >= newest - keepFrames && $0.frame >= from && $0.frame < to }.map {
      var p = $0
      p.frame -= from
      return p
    }
  }

  @Test("Holds the last 20 minutes of peaks, as a list of every peak would, over seeded runs of many hours")
  func matchesAModel() {
    for seed: UInt64 in 1...4 {
      let history = PeakHistory(parameters: Self.parameters)
      var all: [Peak] = []
      var generator = SeededGenerator(seed: seed &* 977)
      // Three hours of blocks: the window wraps the ring many times.
      let blockCount = 3 * 3600 * Int(Self.parameters.framesPerSecond) / Self.parameters.peakBlockFrames
      for (index, block) in Self.blocks(count: blockCount, seed: seed).enumerated() {
        history.append(block[...])
        all += block
        if index % 5000 == 4999 {
          let newest = all.last?.frame ?? 0
          let from = newest - Int32.random(in: 0...(Self.keepFrames + 2000), using: &generator)
          let to = from + Int32.random(in: 1...Self.keepFrames, using: &generator)
          #expect(history.peaks(from: from, to: to) == Self.expected(all, from: from, to: to), "seed \(seed)")
        }
      }
      let newest = all.last?.frame ?? 0
      #expect(history.peakCount == all.filter { $0.frame >= newest - Self.keepFrames }.count)
    }
  }

  @Test("Its memory is set when it is made and stays there: about 0.4 MB for the window at most")
  func fixedCapacity() {
    let history = PeakHistory(parameters: Self.parameters)
    let capacity = history.capacity
    #expect(capacity * MemoryLayout<Peak>.stride <= 400_000)
    // Every block full, for an hour: the window's peaks all fit.
    let full = (0..<(3600 * 32 / Self.parameters.peakBlockFrames)).map { block in
      (0..<Self.parameters.queryPeaksPerBlock).map { i in
        Peak(frame: Int32(block * Self.parameters.peakBlockFrames + i), bin: 10, strength: 1)
      }
    }
    for block in full { history.append(block[...]) }
    let all = full.flatMap { $0 }
    let newest = all.last!.frame
    #expect(history.peakCount == all.filter { $0.frame >= newest - Self.keepFrames }.count)
    #expect(history.capacity == capacity)
    #expect(history.peaks(from: 0, to: newest + 1) == Self.expected(all, from: 0, to: newest + 1))
  }

  @Test("A new stream starts it empty")
  func removeAll() {
    let history = PeakHistory(parameters: Self.parameters)
    for block in Self.blocks(count: 100, seed: 9) { history.append(block[...]) }
    history.removeAll()
    #expect(history.peakCount == 0)
    #expect(history.peaks(from: 0, to: .max) == [])
    let later = Self.blocks(count: 10, from: 500, seed: 10)
    for block in later { history.append(block[...]) }
    #expect(history.peaks(from: 0, to: .max) == later.flatMap { $0 })
  }
}
