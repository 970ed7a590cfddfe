import Foundation
import Testing

@testable import MonitorKit

@Suite("StreamClock")
struct StreamClockTests {
  @Test("stream time maps through the first anchor, also before it")
  func firstAnchor() {
    var clock = StreamClock()
    clock.observe(stream: 10, wall: 1000)
    #expect(clock.wallSeconds(atStream: 12.5) == 1002.5)
    #expect(clock.wallSeconds(atStream: 4) == 994)
  }

  @Test("a clock that keeps time adds no anchors within the interval")
  func steadyClock() {
    var clock = StreamClock(toleranceSeconds: 0.02, intervalSeconds: 60)
    for second in 0..<50 { clock.observe(stream: Double(second), wall: 5000 + Double(second)) }
    #expect(clock.anchorCount == 1)
  }

  @Test("drift beyond the tolerance re-anchors, and each span keeps its own mapping")
  func driftReanchors() {
    var clock = StreamClock(toleranceSeconds: 0.02, intervalSeconds: 1000)
    // The sample clock runs 1 % slow against the wall: after 10 stream seconds the wall says 10.1.
    for tenth in 0...200 {
      let stream = Double(tenth) / 10
      clock.observe(stream: stream, wall: 100 + stream * 1.01)
    }
    #expect(clock.anchorCount > 5)
    #expect(abs(clock.wallSeconds(atStream: 15) - (100 + 15 * 1.01)) < 0.03)
    #expect(abs(clock.wallSeconds(atStream: 2) - (100 + 2 * 1.01)) < 0.03)
  }

  @Test("dropped audio moves the mapping from that point on only")
  func droppedAudio() {
    var clock = StreamClock()
    clock.observe(stream: 0, wall: 0)
    clock.observe(stream: 30, wall: 30)
    clock.observe(stream: 31, wall: 33)  // two seconds of audio lost before stream second 31
    #expect(clock.wallSeconds(atStream: 20) == 20)
    #expect(clock.wallSeconds(atStream: 40) == 42)
  }

  @Test("reset forgets the anchors")
  func reset() {
    var clock = StreamClock()
    clock.observe(stream: 0, wall: 50)
    clock.reset()
    #expect(clock.anchorCount == 0)
    #expect(clock.wallSeconds(atStream: 3) == 3)
  }
}
