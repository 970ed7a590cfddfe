/// Counts the target frames that two or more distinct anchor frames place, among a gathering's matches: verification's
/// mark of matches that aired, where a cluster of chance matches of rare hashes has none (`StreamMatcher.gather`,
/// `confirmingTrack`).
///
/// Each match becomes one key, its target frame above its anchor frame; sorted, a target's matches lie side by side,
/// and two anchors agree on it when its first and last keys differ. The keys live in a buffer kept from call to call,
/// where a dictionary of anchors by target and a set of agreeing targets, made anew in each call, allocated and hashed
/// each time. One thread: the matcher's.
final class AgreeingTargetCounter {
  private var keys: [UInt64] = []

  init() { keys.reserveCapacity(1024) }

  /// Targets of `targets` placed by two or more distinct anchors; match i is `targets[i]` from anchor frame
  /// `anchorFrames[i]` (a whole number of frames).
  func count(targets: [Int32], anchorFrames: [Double]) -> Int {
    keys.removeAll(keepingCapacity: true)
    for i in targets.indices {
      let anchor = UInt64(UInt32(bitPattern: Int32(anchorFrames[i])))
      keys.append(UInt64(UInt32(bitPattern: targets[i])) << 32 | anchor)
    }
    keys.sort()
    var agreeing = 0
    var k = 0
    while k < keys.count {
      let target = keys[k] >> 32
      var last = k
      while last + 1 < keys.count && keys[last + 1] >> 32 == target { last += 1 }
      if keys[last] != keys[k] { agreeing += 1 }
      k = last + 1
    }
    return agreeing
  }
}
