/// The matcher's query peaks of the last `ClassifierTuning.peakHistorySeconds`, so that an unknown segment can be
/// fingerprinted when it closes without keeping its audio.
///
/// One thread at a time: the owner of the air watch.
final class PeakHistory {
  private var peaks: [Peak] = []
  private var first = 0
  private let keepFrames: Int32

  init(parameters: FingerprintParameters) {
    keepFrames = Int32(ClassifierTuning.peakHistorySeconds * parameters.framesPerSecond)
  }

  func append(_ batch: ArraySlice<Peak>) {
    peaks.append(contentsOf: batch)
    guard let newest = peaks.last?.frame else { return }
    while first < peaks.count && peaks[first].frame < newest - keepFrames { first += 1 }
    if first > 65536 {
      peaks.removeFirst(first)
      first = 0
    }
  }

  /// The peaks of frames `from..<to`, their frames counted from `from`.
  func peaks(from: Int32, to: Int32) -> [Peak] {
    var out: [Peak] = []
    for p in peaks[first...] where p.frame >= from && p.frame < to {
      var q = p
      q.frame -= from
      out.append(q)
    }
    return out
  }

  func removeAll() {
    peaks.removeAll()
    first = 0
  }
}
