import Foundation

/// Whole milliseconds since 1970-01-01T00:00:00Z: how the play log stores every time, and what CSV reports print.
extension Date {
  /// The largest distance from 1970 that is kept, in milliseconds: 100 million days, about 273,790 years, either way.
  /// Dates further away (and NaN) are clamped, so that no conversion can trap.
  static let millisecondLimit: Int64 = 8_640_000_000_000_000

  /// This date rounded to the nearest millisecond since 1970, UTC; a date exactly halfway rounds to the later one,
  /// before 1970 as after it (so …12.3456 s gives …12.346 s, and -0.0005 s gives 0 ms).
  var millisecondsSince1970: Int64 {
    Self.milliseconds(fromSeconds: timeIntervalSince1970)
  }

  /// `seconds` as whole milliseconds, rounded the same way (halfway to the larger); clamped to
  /// ±``millisecondLimit``, NaN to 0. For durations and offsets as well as for times.
  static func milliseconds(fromSeconds seconds: Double) -> Int64 {
    let milliseconds = seconds * 1000
    guard milliseconds.isFinite else {
      return milliseconds > 0 ? millisecondLimit : (milliseconds < 0 ? -millisecondLimit : 0)
    }
    let limit = Double(millisecondLimit)
    if milliseconds >= limit { return millisecondLimit }
    if milliseconds <= -limit { return -millisecondLimit }
    let down = milliseconds.rounded(.down)
    let whole = Int64(down)
    return milliseconds - down >= 0.5 ? whole + 1 : whole
  }

  /// The date that is `milliseconds` after 1970-01-01T00:00:00Z (before it when negative).
  init(millisecondsSince1970 milliseconds: Int64) {
    self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
