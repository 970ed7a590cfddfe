import Foundation

/// The parser behind ``ISO8601Millis/parse(_:)``: a cursor over the UTF-8 bytes of one timestamp.
extension ISO8601Millis {
  struct TimestampScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    /// The whole text as one timestamp, in milliseconds since 1970; nil unless it is one, exactly.
    mutating func timestamp() -> Int64? {
      guard let year = year(), take("-"), let month = number(digits: 2), take("-"), let day = number(digits: 2),
        take("T"), let hour = number(digits: 2), take(":"), let minute = number(digits: 2), take(":"),
        let second = number(digits: 2), let fraction = fractionMilliseconds(), let offset = offsetMilliseconds(),
        position == bytes.count
      else { return nil }
      guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
        hour < 24, minute < 60, second < 60
      else { return nil }
      let time = ((hour * 60 + minute) * 60 + second) * 1000 + fraction
      let milliseconds = days(year: year, month: month, day: day) * millisecondsPerDay + time - offset
      guard abs(milliseconds) <= Date.millisecondLimit else { return nil }
      return milliseconds
    }

    /// Four digits, or a sign and four to six digits.
    private mutating func year() -> Int64? {
      guard position < bytes.count else { return nil }
      let sign = bytes[position]
      guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return number(digits: 4) }
      position += 1
      let start = position
      var value: Int64 = 0
      while position < bytes.count, let digit = digit(at: position), position - start < 6 {
        value = value * 10 + digit
        position += 1
      }
      guard position - start >= 4 else { return nil }
      return sign == UInt8(ascii: "-") ? -value : value
    }

    /// Nothing (0), or a point and one or more digits, rounded to milliseconds (halfway rounds up).
    private mutating func fractionMilliseconds() -> Int64? {
      guard position < bytes.count, bytes[position] == UInt8(ascii: ".") else { return 0 }
      position += 1
      let start = position
      var milliseconds: Int64 = 0
      var roundsUp = false
      while position < bytes.count, let digit = digit(at: position) {
        switch position - start {
        case 0..<3: milliseconds = milliseconds * 10 + digit
        case 3: roundsUp = digit >= 5
        default: break
        }
        position += 1
      }
      let count = position - start
      guard count > 0 else { return nil }
      for _ in count..<max(count, 3) { milliseconds *= 10 }
      return milliseconds + (roundsUp ? 1 : 0)
    }

    /// `Z` (0) or `±hh:mm`, in milliseconds east of UTC.
    private mutating func offsetMilliseconds() -> Int64? {
      guard position < bytes.count else { return nil }
      let sign = bytes[position]
      if sign == UInt8(ascii: "Z") {
        position += 1
        return 0
      }
      guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
      position += 1
      guard let hours = number(digits: 2), take(":"), let minutes = number(digits: 2), hours < 24, minutes < 60
      else { return nil }
      let offset = (hours * 60 + minutes) * 60_000
      return sign == UInt8(ascii: "-") ? -offset : offset
    }

    /// Exactly `digits` decimal digits.
    private mutating func number(digits: Int) -> Int64? {
      guard position + digits <= bytes.count else { return nil }
      var value: Int64 = 0
      for index in position..<position + digits {
        guard let digit = digit(at: index) else { return nil }
        value = value * 10 + digit
      }
      position += digits
      return value
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
      guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
      position += 1
      return true
    }

    private func digit(at index: Int) -> Int64? {
      let byte = bytes[index]
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      return Int64(byte - UInt8(ascii: "0"))
    }
  }
}
