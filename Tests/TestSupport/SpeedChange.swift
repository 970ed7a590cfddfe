import Foundation

/// Changes the speed of a recording by resampling it, as a sped-up playout or a turntable does: played `speed` times
/// as fast, pitch moves with tempo. Windowed-sinc interpolation (Blackman window), with the cut-off lowered when
/// speeding up so that what would fold back from above the new Nyquist frequency is filtered out (all but a
/// transition band of about 1.4 kHz × 8 kHz-rate / input rate just below the cut-off, with 16 taps a side).
public enum SpeedChange {
  /// `samples` (mono) played `speed` times as fast: output sample n is the input at n × speed.
  /// - Parameter halfTaps: input samples used on each side of the point: 16 is plenty for a fingerprint.
  public static func resample(_ samples: [Float], speed: Double, halfTaps: Int = 16) -> [Float] {
    precondition(speed > 0, "speed must be positive")
    let count = Int(Double(samples.count) / speed)
    let cutoff = min(1, 1 / speed)  // of the input's Nyquist frequency
    var out = [Float](repeating: 0, count: count)
    let width = Double(halfTaps)
    samples.withUnsafeBufferPointer { x in
      for n in 0..<count {
        let position = Double(n) * speed
        let centre = Int(position.rounded(.down))
        var sum = 0.0
        var weights = 0.0
        for k in max(0, centre - halfTaps + 1)...min(x.count - 1, centre + halfTaps) {
          let t = position - Double(k)
          let u = t / width
          guard abs(u) < 1 else { continue }
          let window = 0.42 + 0.5 * cos(Double.pi * u) + 0.08 * cos(2 * Double.pi * u)
          let arg = Double.pi * cutoff * t
          let sinc = abs(arg) < 1e-9 ? 1 : sin(arg) / arg
          let w = cutoff * sinc * window
          sum += Double(x[k]) * w
          weights += w
        }
        // Normalising by the weights keeps DC gain at exactly 1 near the edges.
        out[n] = Float(weights != 0 ? sum / weights : 0)
      }
    }
    return out
  }
}
