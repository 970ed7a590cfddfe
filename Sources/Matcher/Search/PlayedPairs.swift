import Common

/// The broadcast pairs (anchor and target peak) that each running play matched lately: what tells a second catalog
/// copy of the recording on the air from another item heard over it.
///
/// A catalog that holds one recording twice at different speeds (a master and its sped-up radio edit) is not caught
/// when the copy is added (`SharedRecording` compares pairs at one speed), and both copies match every airing, each
/// on its own speed hypothesis: the same broadcast peaks matched twice. So do two copies at one speed that were
/// added with `--allow-duplicates`. A jingle over a song, or the next song in a crossfade, is matched from peaks of
/// its own. So a new line a share of whose broadcast pairs a running play of another track has matched already
/// (`MatcherTuning.minSharedPairShare`) is that play's audio, not a second play.
///
/// Each play keeps its last `capacity` pairs in a ring, taken from a pool made in `init` and grown only when more plays
/// run at once than it holds. One thread: the matcher's.
final class PlayedPairs {
  /// Pairs remembered per play. A new line's matches lie in the vote window (the last 8 s); a play that matched more
  /// than this many pairs in that time would have forgotten some of them, and a copy's line over it would be
  /// checked against part of its pairs only: a copy might then go unrecognised (its airing logged twice, as without
  /// this check), never a play be dropped. Pairs.
  static let capacity = 4096

  private struct Ring {
    var playID = -1
    var keys = [UInt64](repeating: 0, count: PlayedPairs.capacity)
    var next = 0
    var count = 0
  }

  private var rings: [Ring]
  /// Rings not in use: their indices in `rings`.
  private var free: [Int]
  /// The ring of the play recorded last, checked first: a stretch of matches mostly goes to one play.
  private var lastRing = -1
  /// `matchedCount`'s scratch: the keys asked for, sorted, and which of them the ring holds.
  private var sortedKeys: [UInt64] = []
  private var found: [Bool] = []

  init(plays: Int = 8) {
    rings = (0..<plays).map { _ in Ring() }
    free = Array((0..<plays).reversed())
    sortedKeys.reserveCapacity(1024)
    found.reserveCapacity(1024)
  }

  @inline(__always)
  static func key(anchorFrame: Int32, targetFrame: Int32) -> UInt64 {
    UInt64(UInt32(bitPattern: anchorFrame)) << 32 | UInt64(UInt32(bitPattern: targetFrame))
  }

  /// Remembers that play `playID` matched the broadcast pair from `anchorFrame` to `targetFrame`.
  @inline(__always)
  func record(playID: Int, anchorFrame: Int32, targetFrame: Int32) {
    let r = ring(of: playID) ?? newRing(for: playID)
    let k = Self.key(anchorFrame: anchorFrame, targetFrame: targetFrame)
    rings[r].keys[rings[r].next] = k
    rings[r].next = (rings[r].next + 1) & (Self.capacity - 1)
    rings[r].count = min(rings[r].count + 1, Self.capacity)
  }

  /// How many of `keys` (`key(anchorFrame:targetFrame:)`) play `playID` matched among its remembered pairs.
  ///
  /// One pass over the ring, each of its pairs looked up in `keys` sorted: a ring's pairs times the logarithm of a
  /// line's, where asking for each key in the ring would take their product (a line has tens to hundreds).
  func matchedCount(of keys: [UInt64], byPlay playID: Int) -> Int {
    guard let r = ring(of: playID), !keys.isEmpty else { return 0 }
    sortedKeys.removeAll(keepingCapacity: true)
    sortedKeys.append(contentsOf: keys)
    sortedKeys.sort()
    found.removeAll(keepingCapacity: true)
    found.append(contentsOf: repeatElement(false, count: keys.count))
    let count = rings[r].count
    rings[r].keys.withUnsafeBufferPointer { ring in
      sortedKeys.withUnsafeBufferPointer { sorted in
        found.withUnsafeMutableBufferPointer { found in
          for i in 0..<count {
            let k = ring[i]
            // The first sorted key not below k, then every copy of it: `keys` may repeat a pair.
            var lo = BinarySearch.partitionPoint(in: sorted.indices) { sorted[$0] < k }
            while lo < sorted.count && sorted[lo] == k && !found[lo] {
              found[lo] = true
              lo += 1
            }
          }
        }
      }
    }
    return found.count { $0 }
  }

  /// Forgets play `playID` (it ended): its ring goes back to the pool.
  func forget(playID: Int) {
    guard let r = ring(of: playID) else { return }
    rings[r].playID = -1
    rings[r].count = 0
    rings[r].next = 0
    free.append(r)
    lastRing = -1
  }

  func removeAll() {
    for r in rings.indices where rings[r].playID != -1 { forget(playID: rings[r].playID) }
  }

  @inline(__always)
  private func ring(of playID: Int) -> Int? {
    if lastRing >= 0 && rings[lastRing].playID == playID { return lastRing }
    guard let r = rings.firstIndex(where: { $0.playID == playID }) else { return nil }
    lastRing = r
    return r
  }

  private func newRing(for playID: Int) -> Int {
    let r: Int
    if let f = free.popLast() {
      r = f
    } else {
      r = rings.count
      rings.append(Ring())
    }
    rings[r].playID = playID
    lastRing = r
    return r
  }
}
