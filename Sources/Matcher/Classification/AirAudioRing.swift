/// The last few minutes of a channel's audio at the fingerprint rate, as 16-bit samples, so that an unknown segment
/// can be kept as a clip once the air watch closes it (which it does `ClassifierTuning.holdSeconds` after its end,
/// plus at most `ClassifierTuning.maxBridgeSeconds`), and a catalog play once it ends.
/// Bounded: it holds `capacity` samples, and older audio is overwritten.
///
/// One thread at a time: the thread that feeds the matcher (the front end appends, the air watch reads).
final class AirAudioRing {
  private var storage: [Int16]
  /// Samples appended since the stream began: the index of the next sample.
  private(set) var appended = 0

  /// A ring of `seconds` of audio at `sampleRateHz`.
  init(seconds: Double, sampleRateHz: Int) {
    storage = [Int16](repeating: 0, count: max(1, Int(seconds * Double(sampleRateHz))))
  }

  var capacity: Int { storage.count }

  /// The stream index of the oldest sample the ring holds.
  var firstHeld: Int { max(0, appended - storage.count) }

  func append(_ samples: UnsafeBufferPointer<Float>) {
    let n = storage.count
    storage.withUnsafeMutableBufferPointer { ring in
      // A buffer longer than the ring leaves only its end, which starts where its first sample beyond that would go.
      var index = (appended + samples.count - min(n, samples.count)) % n
      for sample in samples.suffix(n) {
        ring[index] = Int16((max(-1, min(1, sample)) * 32767).rounded())
        index = index + 1 == n ? 0 : index + 1
      }
    }
    appended += samples.count
  }

  /// The samples with stream indices `from..<to` that the ring still holds (the newest part, when the start was
  /// overwritten), as floats; nil when it holds none of them.
  func samples(from: Int, to: Int) -> [Float]? {
    let start = max(from, firstHeld)
    let end = min(to, appended)
    guard end > start else { return nil }
    let n = storage.count
    var out = [Float](repeating: 0, count: end - start)
    storage.withUnsafeBufferPointer { ring in
      for i in start..<end { out[i - start] = Float(ring[i % n]) / 32767 }
    }
    return out
  }

  func removeAll() { appended = 0 }
}
