import Common
import Foundation

/// A station's local calendar: the wall-clock time in one time zone, for the periods of a report (broadcast days
/// from local midnight, weeks from Monday, months) and for printing times with the zone's offset.
///
/// The zone's offsets are read once from the time zone database for the span the report covers (with two days to
/// spare each side) and kept as a table of transitions, so converting millions of play times costs a table lookup,
/// and local → UTC conversions are exact across daylight-saving changes: a local time that a change skips (02:30 on
/// the spring-forward night) maps to the first instant after the gap, one that happens twice (the autumn overlap)
/// to its first occurrence. Outside the table the zone is asked directly.
///
/// Times are whole milliseconds since 1970, UTC, as the play log stores them.
///
/// A value type: safe to pass between threads.
package struct LocalCalendar: Sendable {
  /// One stretch of constant offset: from `startMilliseconds` (UTC) to the next segment's start.
  struct Segment: Sendable, Equatable {
    var startMilliseconds: Int64
    var offsetMilliseconds: Int64
  }

  package static let millisecondsPerDay: Int64 = 86_400_000
  private static let hourMilliseconds: Int64 = 3_600_000

  /// The zone.
  package let timeZone: TimeZone
  /// True when times print as UTC with `Z` (the zone is UTC or GMT).
  package let printsZulu: Bool
  /// Offsets over the covered span, by start; never empty.
  let segments: [Segment]
  /// The end of the span the table covers (exclusive).
  let coveredUntilMilliseconds: Int64

  /// A calendar for `timeZone` whose table covers `[fromMilliseconds, toMilliseconds)` and two days either side.
  package init(timeZone: TimeZone, fromMilliseconds: Int64, toMilliseconds: Int64) {
    self.timeZone = timeZone
    printsZulu = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal"].contains(
      timeZone.identifier)
    let start = min(fromMilliseconds, toMilliseconds) - 2 * Self.millisecondsPerDay
    let end = max(fromMilliseconds, toMilliseconds) + 2 * Self.millisecondsPerDay
    func offset(_ milliseconds: Int64) -> Int64 {
      Int64(timeZone.secondsFromGMT(for: Date(millisecondsSince1970: milliseconds))) * 1000
    }
    // Sample every hour (no zone has changed its offset for less than that) and find each change to the
    // millisecond by bisection.
    var segments = [Segment(startMilliseconds: start, offsetMilliseconds: offset(start))]
    var previous = start
    var sample = start + Self.hourMilliseconds
    while previous < end {
      let current = offset(sample)
      if current != segments[segments.count - 1].offsetMilliseconds {
        // The first millisecond of the hour with the new offset.
        let change = BinarySearch.partitionPoint(in: Int(previous + 1)..<Int(sample)) { offset(Int64($0)) != current }
        segments.append(Segment(startMilliseconds: Int64(change), offsetMilliseconds: current))
      }
      previous = sample
      sample += Self.hourMilliseconds
    }
    self.segments = segments
    coveredUntilMilliseconds = previous
  }

  /// The zone's offset from UTC at `milliseconds`, in milliseconds (east positive).
  package func offsetMilliseconds(at milliseconds: Int64) -> Int64 {
    guard milliseconds >= segments[0].startMilliseconds, milliseconds < coveredUntilMilliseconds else {
      return Int64(timeZone.secondsFromGMT(for: Date(millisecondsSince1970: milliseconds))) * 1000
    }
    // The last segment that starts at or before `milliseconds` (the first does, as the guard checked).
    let after = BinarySearch.partitionPoint(in: segments.indices) { segments[$0].startMilliseconds <= milliseconds }
    return segments[after - 1].offsetMilliseconds
  }

  /// The wall-clock time at `milliseconds`, as milliseconds since 1970-01-01T00:00 local.
  package func localMilliseconds(_ milliseconds: Int64) -> Int64 {
    milliseconds + offsetMilliseconds(at: milliseconds)
  }

  /// The first instant whose wall-clock time is `local` (milliseconds since 1970-01-01T00:00 local); for a local
  /// time that a daylight-saving change skips, the instant the change happens.
  package func instant(atLocal local: Int64) -> Int64 {
    for (index, segment) in segments.enumerated() {
      let segmentEnd = index + 1 < segments.count ? segments[index + 1].startMilliseconds : coveredUntilMilliseconds
      let localStart = segment.startMilliseconds + segment.offsetMilliseconds
      let localEnd = segmentEnd + segment.offsetMilliseconds
      if local < localStart {
        // Before this segment: in the gap a change skipped (or before the table).
        return index == 0 ? local - segment.offsetMilliseconds : segment.startMilliseconds
      }
      if local < localEnd { return local - segment.offsetMilliseconds }
    }
    // After the table: ask the zone, with the offset that applies at the answer.
    let guess = local - offsetMilliseconds(at: local)
    return local - offsetMilliseconds(at: guess)
  }

  /// The local day number (days since 1970-01-01 local) of `milliseconds`.
  package func day(of milliseconds: Int64) -> Int64 {
    ISO8601Millis.floorDivision(localMilliseconds(milliseconds), Self.millisecondsPerDay)
  }

  /// The start of local day `day` (its first instant, normally local midnight).
  package func start(ofDay day: Int64) -> Int64 {
    instant(atLocal: day * Self.millisecondsPerDay)
  }

  /// 0 for Monday … 6 for Sunday, of local day `day`.
  package static func weekdayIndex(ofDay day: Int64) -> Int {
    // 1970-01-01 was a Thursday (index 3).
    Int(((day + 3) % 7 + 7) % 7)
  }

  /// The milliseconds since local midnight of `milliseconds`, in wall-clock terms (06:00 is 21 600 000 on every
  /// day, also on a daylight-saving day).
  package func timeOfDayMilliseconds(_ milliseconds: Int64) -> Int64 {
    let local = localMilliseconds(milliseconds)
    return local - ISO8601Millis.floorDivision(local, Self.millisecondsPerDay) * Self.millisecondsPerDay
  }

  /// The local day number that starts the `grouping` period holding local day `day`; weeks start on
  /// `weekStartsOn` (0 for Monday … 6 for Sunday).
  package static func firstDay(of grouping: ReportGrouping, holding day: Int64, weekStartsOn: Int = 0) -> Int64 {
    switch grouping {
    case .day:
      return day
    case .week:
      return day - Int64((weekdayIndex(ofDay: day) - weekStartsOn + 7) % 7)
    case .month:
      let date = ISO8601Millis.civilDate(fromDays: day)
      return ISO8601Millis.days(year: date.year, month: date.month, day: 1)
    }
  }

  /// The local day number that starts the `grouping` period after the one starting on `firstDay`.
  package static func nextFirstDay(of grouping: ReportGrouping, after firstDay: Int64) -> Int64 {
    switch grouping {
    case .day:
      return firstDay + 1
    case .week:
      return firstDay + 7
    case .month:
      let date = ISO8601Millis.civilDate(fromDays: firstDay)
      return date.month == 12
        ? ISO8601Millis.days(year: date.year + 1, month: 1, day: 1)
        : ISO8601Millis.days(year: date.year, month: date.month + 1, day: 1)
    }
  }

  /// The `grouping` periods that hold `[fromMilliseconds, toMilliseconds)`, in order, each half-open, the first
  /// and last whole (they may reach beyond the range); weeks start on `weekStartsOn` (0 for Monday … 6 for
  /// Sunday). Empty for an empty range.
  package func periods(
    _ grouping: ReportGrouping, from fromMilliseconds: Int64, to toMilliseconds: Int64, weekStartsOn: Int = 0
  ) -> [ReportPeriod] {
    guard fromMilliseconds < toMilliseconds else { return [] }
    var periods: [ReportPeriod] = []
    var first = Self.firstDay(of: grouping, holding: day(of: fromMilliseconds), weekStartsOn: weekStartsOn)
    var start = start(ofDay: first)
    while start < toMilliseconds {
      let next = Self.nextFirstDay(of: grouping, after: first)
      let end = self.start(ofDay: next)
      periods.append(ReportPeriod(startMilliseconds: start, endMilliseconds: end))
      first = next
      start = end
    }
    return periods
  }

  /// `milliseconds` as ISO 8601 local time with the zone's offset, `2026-03-08T01:59:59.000-05:00`; with `Z` for a
  /// UTC calendar (`2026-03-08T06:59:59.000Z`, as `scan --csv` prints).
  package func format(_ milliseconds: Int64) -> String {
    if printsZulu { return ISO8601Millis.format(millisecondsSince1970: milliseconds) }
    let offset = offsetMilliseconds(at: milliseconds)
    var text = ISO8601Millis.format(millisecondsSince1970: milliseconds + offset)
    text.removeLast()
    let minutes = abs(offset) / 60_000
    let hours = minutes / 60
    let rest = minutes % 60
    text += offset < 0 ? "-" : "+"
    text += hours < 10 ? "0\(hours)" : "\(hours)"
    text += rest < 10 ? ":0\(rest)" : ":\(rest)"
    return text
  }

  /// `date` as ``format(_:)`` prints it.
  package func format(_ date: Date) -> String { format(date.millisecondsSince1970) }
}
