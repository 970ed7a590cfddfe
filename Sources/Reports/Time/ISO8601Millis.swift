import Foundation

/// ISO 8601 timestamps in UTC with exactly three fraction digits, as CSV reports print them:
/// `2026-01-01T00:03:12.345Z`.
///
/// Exact: it works on whole milliseconds since 1970 with integer calendar arithmetic (proleptic Gregorian, as
/// ISO 8601 says), with no `DateFormatter`, time zone database or locale. Dates are rounded to the nearest
/// millisecond, a date halfway between two rounding to the later one (…12.3456 s prints as …12.346). Dates before
/// 1970 work the same way; years outside 0000…9999 print with a sign (`-0001`, `+10000`), as ISO 8601's expanded
/// form does.
///
/// Stateless: safe to call from any thread.
package enum ISO8601Millis {
  /// `date` as `YYYY-MM-DDThh:mm:ss.fffZ`.
  package static func format(_ date: Date) -> String {
    format(millisecondsSince1970: date.millisecondsSince1970)
  }

  /// The time `milliseconds` after 1970-01-01T00:00:00Z as `YYYY-MM-DDThh:mm:ss.fffZ`.
  package static func format(millisecondsSince1970 milliseconds: Int64) -> String {
    let clamped = min(max(milliseconds, -Date.millisecondLimit), Date.millisecondLimit)
    let days = floorDivision(clamped, millisecondsPerDay)
    let timeOfDay = clamped - days * millisecondsPerDay
    let (year, month, day) = civilDate(fromDays: days)
    let capacity = 32
    return String(unsafeUninitializedCapacity: capacity) { buffer in
      var count = 0
      func put(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
      }
      func put(_ value: Int64, digits: Int) {
        var divisor: Int64 = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
          put(UInt8(ascii: "0") + UInt8(rest / divisor))
          rest %= divisor
          divisor /= 10
        }
      }
      if year < 0 || year > 9999 {
        put(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let magnitude = abs(year)
        var digits = 4
        var limit: Int64 = 10_000
        while magnitude >= limit {
          digits += 1
          limit *= 10
        }
        put(magnitude, digits: digits)
      } else {
        put(year, digits: 4)
      }
      put(UInt8(ascii: "-"))
      put(month, digits: 2)
      put(UInt8(ascii: "-"))
      put(day, digits: 2)
      put(UInt8(ascii: "T"))
      put(timeOfDay / 3_600_000, digits: 2)
      put(UInt8(ascii: ":"))
      put(timeOfDay / 60_000 % 60, digits: 2)
      put(UInt8(ascii: ":"))
      put(timeOfDay / 1_000 % 60, digits: 2)
      put(UInt8(ascii: "."))
      put(timeOfDay % 1_000, digits: 3)
      put(UInt8(ascii: "Z"))
      return count
    }
  }

  /// Parses `YYYY-MM-DDThh:mm:ss[.f…](Z|±hh:mm)`; nil for anything else or an impossible date.
  ///
  /// The fraction may have any number of digits and is rounded to the nearest millisecond (halfway rounds up).
  /// The year is four digits, or a sign and four to six digits. `T` and `Z` are upper-case; seconds are required.
  package static func parse(_ text: String) -> Date? {
    parseMillisecondsSince1970(text).map(Date.init(millisecondsSince1970:))
  }

  /// Like ``parse(_:)``, as whole milliseconds since 1970-01-01T00:00:00Z.
  package static func parseMillisecondsSince1970(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { bytes in
      var scanner = TimestampScanner(bytes: bytes)
      return scanner.timestamp()
    }
  }

  /// Like ``parse(_:)``, its seconds optional (``parseMillisecondsSince1970(typed:)``).
  package static func parse(typed text: String) -> Date? {
    parseMillisecondsSince1970(typed: text).map(Date.init(millisecondsSince1970:))
  }

  /// Like ``parseMillisecondsSince1970(_:)``, and also `YYYY-MM-DDThh:mm(Z|±hh:mm)`, the seconds left out (ISO 8601's
  /// reduced precision), as a person types a time: `2026-03-01T06:00Z` is `2026-03-01T06:00:00Z`. For the times
  /// given on a command line or in a URL; files keep the full form.
  package static func parseMillisecondsSince1970(typed text: String) -> Int64? {
    if let milliseconds = parseMillisecondsSince1970(text) { return milliseconds }
    guard let t = text.firstIndex(of: "T") else { return nil }
    let time = text[text.index(after: t)...]
    guard time.count == 6 || time.count == 11, time.dropFirst(2).first == ":" else { return nil }
    let minutesEnd = time.index(time.startIndex, offsetBy: 5)
    let zone = time[minutesEnd...]
    guard zone == "Z" || (zone.count == 6 && (zone.first == "+" || zone.first == "-")) else { return nil }
    return parseMillisecondsSince1970(String(text[...t]) + time[..<minutesEnd] + ":00" + zone)
  }

  static let millisecondsPerDay: Int64 = 86_400_000

  /// `a / b` rounded towards negative infinity, for `b > 0`.
  static func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }
}
