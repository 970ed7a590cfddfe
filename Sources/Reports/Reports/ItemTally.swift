/// What a report adds up for one item over some span: plays, seconds on air, first and last start.
///
/// A value type: safe to pass between threads.
package struct ItemTally: Sendable, Equatable {
  package var plays = 0
  package var totalMilliseconds: Int64 = 0
  package var firstStartMilliseconds = Int64.max
  package var lastStartMilliseconds = Int64.min

  package init() {}

  /// Adds one play.
  package mutating func add(start: Int64, end: Int64) {
    plays += 1
    totalMilliseconds += end - start
    firstStartMilliseconds = min(firstStartMilliseconds, start)
    lastStartMilliseconds = max(lastStartMilliseconds, start)
  }

  /// Adds `other`, a tally of other plays.
  package mutating func add(_ other: ItemTally) {
    plays += other.plays
    totalMilliseconds += other.totalMilliseconds
    firstStartMilliseconds = min(firstStartMilliseconds, other.firstStartMilliseconds)
    lastStartMilliseconds = max(lastStartMilliseconds, other.lastStartMilliseconds)
  }
}
