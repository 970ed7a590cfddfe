import TestSupport
import Testing

@testable import MonitorKit

@Suite("AlertTracker")
struct AlertTrackerTests {
  @Test("a condition that holds for its time opens once, from when it began; clear for the hold closes once")
  func opensAndCloses() {
    var tracker = AlertTracker(forSeconds: 3, holdSeconds: 2)
    var changes: [(Double, AlertTracker.Change)] = []
    let holds = [false, true, true, true, true, true, false, true, false, false, false, false]
    for (i, value) in holds.enumerated() {
      if let change = tracker.observe(value, at: Double(i)) { changes.append((Double(i), change)) }
    }
    #expect(changes.map(\.0) == [4, 10])
    #expect(changes.map(\.1) == [.opened(since: 1), .closed(since: 1, until: 8)])
    #expect(!tracker.isOpen)
  }

  @Test("a condition that clears before its time opens nothing; `since` dates an onset the caller knows")
  func shortConditionOpensNothing() {
    var tracker = AlertTracker(forSeconds: 10, holdSeconds: 5)
    for t in 0..<9 { #expect(tracker.observe(true, at: Double(t)) == nil) }
    #expect(tracker.observe(false, at: 9) == nil)
    #expect(tracker.observe(true, at: 20, since: 8) == .opened(since: 8))
    #expect(tracker.finish(at: 25) == .closed(since: 8, until: 25))
    #expect(tracker.finish(at: 26) == nil)
  }

  /// Random levels around a threshold, seeded: the alert never flaps.
  @Test(
    "over random level sequences, opens and closes alternate, and no alert is shorter than the hold or its time",
    arguments: [1, 2, 3, 42, 1234, 99_999] as [UInt64])
  func neverFlaps(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let forSeconds = Double(Int.random(in: 0...20, using: &random))
    let holdSeconds = Double(Int.random(in: 0...15, using: &random))
    var tracker = AlertTracker(forSeconds: forSeconds, holdSeconds: holdSeconds)
    var time = 0.0
    var level = -50.0
    var lastOpen: Double?
    var opens = 0
    for _ in 0..<20_000 {
      // A level wandering around −50 dBFS with jumps, observed at irregular times.
      level += Double.random(in: -3...3, using: &random)
      if Int.random(in: 0..<200, using: &random) == 0 { level = Double.random(in: -90 ... -10, using: &random) }
      level = min(0, max(-120, level))
      time += Double.random(in: 0.05...1.5, using: &random)
      switch tracker.observe(level < -50, at: time) {
      case .opened(let since)?:
        #expect(lastOpen == nil, "two opens in a row at \(time)")
        #expect(time - since >= forSeconds)
        lastOpen = time
        opens += 1
      case .closed(let since, let until)?:
        #expect(lastOpen != nil, "a close without an open at \(time)")
        #expect(time - (lastOpen ?? -.infinity) >= holdSeconds, "open for less than the hold")
        #expect(until - since >= forSeconds, "an alert shorter than its time")
        #expect(until <= time - holdSeconds)
        lastOpen = nil
      case nil:
        break
      }
      #expect(tracker.isOpen == (lastOpen != nil))
    }
    #expect(opens > 0, "the sequence never opened an alert: the test checks nothing")
  }
}
