import Testing

@testable import MonitorKit

@Suite("LagTracker")
struct LagTrackerTests {
  /// Observes `lags` one second apart from time `start`; returns the changes with the times they came at.
  static func observe(
    _ tracker: inout LagTracker, _ lags: [Double], from start: Double
  ) -> [(time: Double, change: LagTracker.Change)] {
    var changes: [(Double, LagTracker.Change)] = []
    for (i, lag) in lags.enumerated() {
      let now = start + Double(i)
      if let change = tracker.observe(lagSeconds: lag, at: now) { changes.append((now, change)) }
    }
    return changes
  }

  @Test("a lag that stays over the threshold for the hold time is reported once, since it crossed the threshold")
  func reportsOnce() {
    var tracker = LagTracker()
    let changes = Self.observe(&tracker, [0.2, 0.5, 2.5, 3.0, 4.0, 6.0, 9.0, 12.0], from: 100)
    #expect(changes.count == 1)
    #expect(changes.first?.time == 104)
    #expect(changes.first?.change == .lagging(since: 102, lagSeconds: 4))
    #expect(tracker.laggingSince == 102)
    #expect(tracker.lagSeconds == 12)
  }

  @Test("a lag that drops below the threshold before the hold time is over (a burst on connect) is not reported")
  func burstIsNotLag() {
    var tracker = LagTracker()
    let changes = Self.observe(&tracker, [9.0, 4.0, 0.3, 0, 8.0, 1.0, 0], from: 0)
    #expect(changes.isEmpty)
    #expect(tracker.laggingSince == nil)
  }

  @Test("caught up once the lag has stayed under the lower limit for the hold time, with the episode and its peak")
  func catchesUp() throws {
    var tracker = LagTracker()
    let changes = Self.observe(&tracker, [3, 3, 3, 5, 7, 0.5, 1.5, 0.4, 0.2, 0.1, 0.1], from: 10)
    try #require(changes.count == 2)
    #expect(changes.map(\.time) == [12, 19])
    #expect(changes.last?.change == .caughtUp(since: 10, until: 19, maxLagSeconds: 7, lagSeconds: 0.1))
    #expect(tracker.laggingSince == nil)
  }

  @Test("a lag wavering between the two limits neither ends the episode nor starts another")
  func hysteresis() {
    var tracker = LagTracker()
    let changes = Self.observe(&tracker, [2, 2, 2, 1.5, 2.5, 1.2, 0.9, 1.8, 0.8, 1.1, 1.9, 2.2, 1.4], from: 0)
    #expect(changes.count == 1)
    #expect(tracker.laggingSince == 0)
  }

  @Test("finishing while lagging closes the episode; finishing while keeping up reports nothing")
  func finish() {
    var tracker = LagTracker()
    _ = Self.observe(&tracker, [4, 4, 4, 6], from: 0)
    #expect(tracker.finish(at: 50) == .caughtUp(since: 0, until: 50, maxLagSeconds: 6, lagSeconds: 6))
    #expect(tracker.laggingSince == nil)
    #expect(tracker.finish(at: 60) == nil)
  }
}
