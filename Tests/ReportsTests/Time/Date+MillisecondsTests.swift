import Foundation
import Testing

@testable import Reports

@Suite("Date+Milliseconds")
struct DateMillisecondsTests {
  @Test(
    "Whole milliseconds survive the trip through Date",
    arguments: [0, 1, -1, 1_767_225_792_345, -14_182_939_123] as [Int64])
  func wholeMillisecondsRoundTrip(milliseconds: Int64) {
    #expect(Date(millisecondsSince1970: milliseconds).millisecondsSince1970 == milliseconds)
  }

  @Test("Dates beyond about 273,790 years either way, and NaN, are clamped instead of trapping")
  func extremesAreClamped() {
    #expect(Date(timeIntervalSince1970: 1e300).millisecondsSince1970 == Date.millisecondLimit)
    #expect(Date(timeIntervalSince1970: -1e300).millisecondsSince1970 == -Date.millisecondLimit)
    #expect(Date(timeIntervalSince1970: .infinity).millisecondsSince1970 == Date.millisecondLimit)
    #expect(Date(timeIntervalSince1970: .nan).millisecondsSince1970 == 0)
  }

  @Test(
    "Seconds become whole milliseconds, halfway rounding to the larger",
    arguments: [
      (1.234, 1_234), (261.5, 261_500), (0.0004, 0), (0.0006, 1), (-0.0004, 0), (-0.0006, -1), (-1.2346, -1_235),
    ]
      as [(Double, Int64)])
  func secondsBecomeMilliseconds(seconds: Double, milliseconds: Int64) {
    #expect(Date.milliseconds(fromSeconds: seconds) == milliseconds)
  }
}
