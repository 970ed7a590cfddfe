/// The matcher's query peaks of the last `ClassifierTuning.peakHistorySeconds`, so that an unknown segment can be
/// fingerprinted when it closes without keeping its audio.
///
/// A ring allocated in `init` for the most peaks the window can hold: the front end sends at most
/// `queryPeaksPerBlock` peaks per block of `peakBlockFrames` frames, one block at a time, in frame order. So the
/// history's memory is fixed from the start (0.4 MB with the default parameters) and never grows however long the
/// channel runs. Were peaks ever to come faster, the oldest would be overwritten first.
///
/// One thread at a time: the owner of the air watch.
final class PeakHistory {
  /// The ring's storage: `count` peaks from `start` (wrapping), oldest first.
  private var ring: [Peak]
  private var start = 0
  private var count = 0
  private let keepFrames: Int32

  init(parameters: FingerprintParameters) {
    keepFrames = Int32(ClassifierTuning.peakHistorySeconds * parameters.framesPerSecond)
    // The blocks that a span of `keepFrames` frames touches, plus the block being appended.
    let blocks = Int(keepFrames) / parameters.peakBlockFrames + 3
    ring = Array(repeating: Peak(frame: 0, bin: 0, strength: 0), count: blocks * parameters.queryPeaksPerBlock)
  }

  /// Peaks the ring holds at most.
  var capacity: Int { ring.count }

  /// Peaks held now.
  var peakCount: Int { count }

  /// Adds a block of peaks, in frame order, and forgets the peaks more than `keepFrames` older than its last.
  func append(_ batch: ArraySlice<Peak>) {
    for peak in batch {
      if count == ring.count {
        start = (start + 1) % ring.count
        count -= 1
      }
      ring[(start + count) % ring.count] = peak
      count += 1
    }
    guard count > 0 else { return }
    let newest = ring[(start + count - 1) % ring.count].frame
    while count > 0 && ring[start].frame < newest - keepFrames {
      start = (start + 1) % ring.count
      count -= 1
    }
  }

  /// The peaks of frames `from..<to`, their frames counted from `from`.
  func peaks(from: Int32, to: Int32) -> [Peak] {
    var out: [Peak] = []
    for index in 0..<count {
      var peak = ring[(start + index) % ring.count]
      guard peak.frame >= from && peak.frame < to else { continue }
      peak.frame -= from
      out.append(peak)
    }
    return out
  }

  func removeAll() {
    start = 0
    count = 0
  }
}
