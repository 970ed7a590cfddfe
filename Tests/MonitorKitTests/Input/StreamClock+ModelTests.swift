import TestSupport
import Testing

@testable import MonitorKit

/// `StreamClock` against a model that keeps its anchors by the documented rules and maps a stream time through the
/// newest anchor at or before it by a linear search, on random clocks: drift, jitter, dropped audio (jumps) and long
/// steady stretches, as a worker observes them (stream time only moves forward).
@Suite("StreamClock against a model")
struct StreamClockModelTests {
  /// The documented rules, written plainly.
  struct Model {
    let toleranceSeconds: Double
    let intervalSeconds: Double
    let keepSeconds: Double
    var anchors: [(stream: Double, wall: Double)] = []

    mutating func observe(stream: Double, wall: Double) {
      if let last = anchors.last {
        let offBy = abs(last.wall + (stream - last.stream) - wall)
        if offBy <= toleranceSeconds && stream - last.stream < intervalSeconds { return }
      }
      anchors.append((stream, wall))
      if anchors.count > 2 && stream - anchors[0].stream > keepSeconds { anchors.removeFirst() }
    }

    func wallSeconds(atStream stream: Double) -> Double {
      guard let anchor = anchors.last(where: { $0.stream <= stream }) ?? anchors.first else { return stream }
      return anchor.wall + (stream - anchor.stream)
    }
  }

  @Test("Random clocks keep the model's anchors, map every stream time as the model does, and stay within tolerance")
  func againstModel() {
    let seed = PropertyCheck.seed
    for index in 0..<PropertyCheck.cases(200) {
      var random = PropertyCheck.generator(case: index, seed: seed)
      let origin = PropertyCheck.origin(case: index, seed: seed)
      let tolerance = [0.005, 0.02, 0.1].randomElement(using: &random)!
      let interval = [5.0, 60, 1000].randomElement(using: &random)!
      let keep = [30.0, 600, 14_400].randomElement(using: &random)!
      var clock = StreamClock(toleranceSeconds: tolerance, intervalSeconds: interval, keepSeconds: keep)
      var model = Model(toleranceSeconds: tolerance, intervalSeconds: interval, keepSeconds: keep)
      let drift = Double.random(in: -0.001...0.001, using: &random)  // up to 1000 ppm: a bad sound card
      var stream = Double.random(in: 0...10, using: &random)
      var wall = 1_796_000_000 + Double.random(in: 0...1000, using: &random)
      var observed: [(stream: Double, wall: Double)] = []
      for step in 0..<300 {
        let seconds = [0.02, 0.128, 0.5, 3, 20].randomElement(using: &random)!
        stream += seconds
        wall += seconds * (1 + drift) + Double.random(in: -0.004...0.004, using: &random)
        if Int.random(in: 0..<40, using: &random) == 0 { wall += Double.random(in: 0.05...5, using: &random) }
        clock.observe(stream: stream, wall: wall)
        model.observe(stream: stream, wall: wall)
        observed.append((stream, wall))
        #expect(clock.anchorCount == model.anchors.count, "\(origin), step \(step)")
        let probe = stream - Double.random(in: -5...(stream + 5), using: &random)
        #expect(
          abs(clock.wallSeconds(atStream: probe) - model.wallSeconds(atStream: probe)) < 1e-6,
          "\(origin), step \(step): stream time \(probe)")
      }
      // Every observation since the oldest anchor kept maps to within the tolerance of the wall time it was heard at.
      let oldest = model.anchors.first?.stream ?? 0
      for (stream, wall) in observed where stream >= oldest {
        #expect(
          abs(clock.wallSeconds(atStream: stream) - wall) <= tolerance + 1e-6,
          "\(origin): stream time \(stream) was heard at \(wall)")
      }
    }
  }
}
