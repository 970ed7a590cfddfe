/// Which of one broadcast peak's catalog matches are backed by a second anchor: the filter in front of the search.
///
/// A broadcast peak is the target of a pair with each earlier peak in its zone, and each pair's postings place the
/// target somewhere in the catalog: at the posting's anchor frame plus the pair's distance. In the reference, a peak
/// is the target of the pairs of about three anchors, so where the broadcast is a catalog track, the pairs of two or
/// more anchors place the target at the same reference frame (within a frame of rounding), under the same speed
/// hypothesis. A chance match rarely has such a partner.
///
/// The peak's matches are collected (`append`), then sorted by the reference frame where they place the peak: a
/// match agrees with another when it is within a frame of it in that order, under the same hypothesis, from a
/// different anchor. A catalog of 1,000 hours gives a peak about 60,000 matches; sorting them (`RadixSort`) costs a
/// few nanoseconds a match, where a hash table of the same cells, too
/// large for a core's cache, cost two memory misses a match. Buffers grow to the largest peak seen and are reused.
/// One thread: the matcher's.
final class TargetAgreement {
  /// Matches of one peak this type holds at most: the index of a match is packed below its reference frame in a
  /// 64-bit sort key. A peak with more (no catalog comes near) keeps its first this many.
  static let maxMatches = 1 << 24
  private static let indexBits: UInt64 = 24

  private var matches: UnsafeMutablePointer<PeakMatch>
  private var keys: UnsafeMutablePointer<UInt64>
  private var sortScratch: UnsafeMutablePointer<UInt64>
  private var agreed: UnsafeMutablePointer<Bool>
  private let histograms: UnsafeMutablePointer<Int>
  private var capacity: Int
  private(set) var count = 0

  /// - Parameter capacity: matches of one peak to make room for now; a peak with more grows the buffers.
  init(capacity: Int) {
    self.capacity = max(64, capacity)
    matches = .allocate(capacity: self.capacity)
    keys = .allocate(capacity: self.capacity)
    sortScratch = .allocate(capacity: self.capacity)
    agreed = .allocate(capacity: self.capacity)
    histograms = .allocate(capacity: RadixSort.histogramCount)
    // Touches every page now, so that the first peaks do not pay for it.
    matches.initialize(
      repeating: PeakMatch(hypothesis: 0, anchorFrame: 0, reference: 0, target: 0), count: self.capacity)
    keys.initialize(repeating: 0, count: self.capacity)
    sortScratch.initialize(repeating: 0, count: self.capacity)
    agreed.initialize(repeating: false, count: self.capacity)
    histograms.initialize(repeating: 0, count: RadixSort.histogramCount)
  }

  deinit {
    matches.deallocate()
    keys.deallocate()
    sortScratch.deallocate()
    agreed.deallocate()
    histograms.deallocate()
  }

  /// Forgets the previous peak's matches.
  @inline(__always)
  func begin() { count = 0 }

  /// Adds a match of the current peak.
  @inline(__always)
  func append(_ match: PeakMatch) {
    guard count < Self.maxMatches else { return }
    if count == capacity { grow() }
    matches[count] = match
    count += 1
  }

  /// Calls `body` with every match of the peak that another anchor agrees with, in the order they were appended.
  func forEachAgreed(_ body: (PeakMatch) -> Void) {
    guard count >= 2 else { return }
    resolve()
    for i in 0..<count where agreed[i] { body(matches[i]) }
  }

  /// Marks the matches that agree: within a frame of each other in reference, same hypothesis, different anchors.
  private func resolve() {
    let n = count
    agreed.update(repeating: false, count: n)
    for i in 0..<n { keys[i] = UInt64(matches[i].target) << Self.indexBits | UInt64(i) }
    RadixSort.sort(keys, count: n, byFieldAt: Int(Self.indexBits), scratch: sortScratch, histograms: histograms)
    let indexMask: UInt64 = (1 << Self.indexBits) - 1
    for i in 1..<n {
      let target = keys[i] >> Self.indexBits
      let a = Int(keys[i] & indexMask)
      var j = i - 1
      // Earlier keys within a frame: nearly always none, a few where the broadcast is a catalog track.
      while j >= 0 && target - (keys[j] >> Self.indexBits) <= 1 {
        let b = Int(keys[j] & indexMask)
        if matches[a].hypothesis == matches[b].hypothesis && matches[a].anchorFrame != matches[b].anchorFrame {
          agreed[a] = true
          agreed[b] = true
        }
        j -= 1
      }
    }
  }

  private func grow() {
    let bigger = capacity * 2
    let newMatches = UnsafeMutablePointer<PeakMatch>.allocate(capacity: bigger)
    newMatches.moveInitialize(from: matches, count: count)
    matches.deallocate()
    matches = newMatches
    (newMatches + count).initialize(
      repeating: PeakMatch(hypothesis: 0, anchorFrame: 0, reference: 0, target: 0), count: bigger - count)
    keys.deallocate()
    keys = .allocate(capacity: bigger)
    keys.initialize(repeating: 0, count: bigger)
    sortScratch.deallocate()
    sortScratch = .allocate(capacity: bigger)
    sortScratch.initialize(repeating: 0, count: bigger)
    agreed.deallocate()
    agreed = .allocate(capacity: bigger)
    agreed.initialize(repeating: false, count: bigger)
    capacity = bigger
  }
}
