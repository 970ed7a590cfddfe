/// One end of a report's span as the user wrote it (`--from`, `--to`): a local date, which means the start of that
/// broadcast day in each station's own time zone (`2026-03-01`), or an exact instant (`2026-03-01T06:00:00-05:00`,
/// `2026-03-01T11:00:00Z`).
///
/// A value type: safe to pass between threads.
package enum ReportBound: Sendable, Equatable {
  /// Local midnight (the day's first instant) of this local day number (days since 1970-01-01).
  case localDay(Int64)
  /// This instant, milliseconds since 1970 UTC.
  case instant(Int64)

  /// `YYYY-MM-DD`, or an ISO 8601 time with a zone (`Z` or `±hh:mm`), its seconds optional; nil for anything else.
  package init?(_ text: String) {
    if let milliseconds = ISO8601Millis.parseMillisecondsSince1970(typed: text) {
      self = .instant(milliseconds)
      return
    }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]), (1...12).contains(month),
      (1...ISO8601Millis.daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    self = .localDay(ISO8601Millis.days(year: year, month: month, day: day))
  }

  /// The instant this bound means on `calendar`.
  package func milliseconds(on calendar: LocalCalendar) -> Int64 {
    switch self {
    case .localDay(let day): calendar.start(ofDay: day)
    case .instant(let milliseconds): milliseconds
    }
  }

  /// An instant within a day of this bound in any time zone, for sizing a calendar's table before the bound is
  /// resolved.
  var approximateMilliseconds: Int64 {
    switch self {
    case .localDay(let day): day * LocalCalendar.millisecondsPerDay
    case .instant(let milliseconds): milliseconds
    }
  }
}
