import Foundation
import Testing

@testable import Reports

@Suite("ISO8601Millis")
struct ISO8601MillisTests {
  @Test(
    "Known times format exactly",
    arguments: [
      (0, "1970-01-01T00:00:00.000Z"),
      (1_767_225_792_345, "2026-01-01T00:03:12.345Z"),
      (1_709_251_199_999, "2024-02-29T23:59:59.999Z"),
      (951_868_800_000, "2000-03-01T00:00:00.000Z"),
      (-1, "1969-12-31T23:59:59.999Z"),
      (-14_182_939_123, "1969-07-20T20:17:40.877Z"),
      (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
      (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
      (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
      (-62_198_755_200_000, "-0001-01-01T00:00:00.000Z"),
      (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
      (253_402_300_800_000, "+10000-01-01T00:00:00.000Z"),
    ] as [(Int64, String)])
  func knownTimesFormatExactly(milliseconds: Int64, text: String) {
    #expect(ISO8601Millis.format(millisecondsSince1970: milliseconds) == text)
    #expect(ISO8601Millis.format(Date(millisecondsSince1970: milliseconds)) == text)
    #expect(ISO8601Millis.parseMillisecondsSince1970(text) == milliseconds)
  }

  @Test(
    "Dates are rounded to the nearest millisecond, before 1970 too",
    arguments: [
      (1_767_225_792.3456, "2026-01-01T00:03:12.346Z"),
      (1_767_225_792.3454, "2026-01-01T00:03:12.345Z"),
      (1_767_225_792.9996, "2026-01-01T00:03:13.000Z"),
      (-0.0004, "1970-01-01T00:00:00.000Z"),
      (-0.0006, "1969-12-31T23:59:59.999Z"),
      (-14_182_939.1234, "1969-07-20T20:17:40.877Z"),
      (-14_182_939.1236, "1969-07-20T20:17:40.876Z"),
    ] as [(Double, String)])
  func datesRoundToTheNearestMillisecond(seconds: Double, text: String) {
    #expect(ISO8601Millis.format(Date(timeIntervalSince1970: seconds)) == text)
  }

  @Test("Every formatted time parses back to the same millisecond")
  func formattedTimesParseBack() {
    var generator = SystemRandomNumberGenerator()
    var samples: [Int64] = [-86_400_001, -86_400_000, -86_399_999, 86_399_999, 86_400_000]
    for _ in 0..<2_000 {
      samples.append(Int64.random(in: -80_000_000_000_000...300_000_000_000_000, using: &generator))
    }
    for milliseconds in samples {
      let text = ISO8601Millis.format(millisecondsSince1970: milliseconds)
      #expect(ISO8601Millis.parseMillisecondsSince1970(text) == milliseconds, "\(text)")
    }
  }

  @Test(
    "Parsing accepts Z and ±hh:mm offsets, any fraction length, and no fraction",
    arguments: [
      "2026-01-01T00:03:12.345Z", "2026-01-01T05:33:12.345+05:30", "2025-12-31T19:03:12.345-05:00",
      "2026-01-01T00:03:12.345+00:00", "2026-01-01T00:03:12.3454Z", "2026-01-01T00:03:12.34499999Z",
    ])
  func offsetsAreApplied(text: String) {
    #expect(ISO8601Millis.parseMillisecondsSince1970(text) == 1_767_225_792_345)
  }

  @Test("Parsing rounds extra fraction digits and pads short ones")
  func fractionsAreRounded() {
    #expect(ISO8601Millis.parseMillisecondsSince1970("2026-01-01T00:03:12.3455Z") == 1_767_225_792_346)
    #expect(ISO8601Millis.parseMillisecondsSince1970("2026-01-01T00:03:12.9999Z") == 1_767_225_793_000)
    #expect(ISO8601Millis.parseMillisecondsSince1970("2026-01-01T00:03:12.3Z") == 1_767_225_792_300)
    #expect(ISO8601Millis.parseMillisecondsSince1970("2026-01-01T00:03:12Z") == 1_767_225_792_000)
    #expect(ISO8601Millis.parse("2026-01-01T00:03:12.345Z") == Date(timeIntervalSince1970: 1_767_225_792.345))
  }

  @Test(
    "Malformed or impossible timestamps do not parse",
    arguments: [
      "", "2026-01-01", "2026-01-01T00:03:12.345", "2026-01-01 00:03:12.345Z", "2026-01-01t00:03:12.345Z",
      "2026-01-01T00:03:12.345z", "2026-01-01T00:03:12.Z", "2026-01-01T00:03Z", "2026-01-01T00:03:12.345+0530",
      "2026-01-01T00:03:12.345+05", "2026-01-01T00:03:12.345Zx", " 2026-01-01T00:03:12.345Z", "2026-02-29T00:00:00Z",
      "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z",
      "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00+24:00", "+026-01-01T00:00:00Z",
      "20260-01-01T00:00:00Z", "+1234567-01-01T00:00:00Z", "２０２６-01-01T00:00:00Z",
    ])
  func malformedTimestampsDoNotParse(text: String) {
    #expect(ISO8601Millis.parse(text) == nil)
  }

  @Test("Leap days parse only in leap years")
  func leapDays() {
    #expect(ISO8601Millis.parse("2024-02-29T00:00:00Z") != nil)
    #expect(ISO8601Millis.parse("2000-02-29T00:00:00Z") != nil)
    #expect(ISO8601Millis.parse("1900-02-29T00:00:00Z") == nil)
    #expect(ISO8601Millis.parse("2100-02-29T00:00:00Z") == nil)
  }
}
