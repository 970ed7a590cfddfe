import Foundation
import Testing

@testable import Reports

@Suite("LocalCalendar")
struct LocalCalendarTests {
  static func ms(_ text: String) -> Int64 { ISO8601Millis.parseMillisecondsSince1970(text)! }

  static let toronto = LocalCalendar(
    timeZone: .toronto, fromMilliseconds: ms("2026-01-01T00:00:00Z"), toMilliseconds: ms("2027-01-01T00:00:00Z"))
  static let paris = LocalCalendar(
    timeZone: .paris, fromMilliseconds: ms("2026-01-01T00:00:00Z"), toMilliseconds: ms("2027-01-01T00:00:00Z"))

  @Test("Times print as local ISO 8601 with the offset in force, across a daylight-saving change")
  func formatsWithOffset() {
    #expect(Self.toronto.format(Self.ms("2026-03-08T06:59:59.999Z")) == "2026-03-08T01:59:59.999-05:00")
    #expect(Self.toronto.format(Self.ms("2026-03-08T07:00:00Z")) == "2026-03-08T03:00:00.000-04:00")
    #expect(Self.paris.format(Self.ms("2026-10-25T00:30:00Z")) == "2026-10-25T02:30:00.000+02:00")
    #expect(Self.paris.format(Self.ms("2026-10-25T01:30:00Z")) == "2026-10-25T02:30:00.000+01:00")
    let utc = LocalCalendar(timeZone: .utc, fromMilliseconds: 0, toMilliseconds: 1)
    #expect(utc.format(Self.ms("2026-03-08T07:00:00Z")) == "2026-03-08T07:00:00.000Z")
    let kolkata = LocalCalendar(timeZone: TimeZone(identifier: "Asia/Kolkata")!, fromMilliseconds: 0, toMilliseconds: 1)
    #expect(kolkata.format(0) == "1970-01-01T05:30:00.000+05:30")
  }

  @Test("The spring-forward day in Toronto is 23 hours long and the autumn day in Paris 25")
  func daylightSavingDays() {
    let march8 = ISO8601Millis.days(year: 2026, month: 3, day: 8)
    let start = Self.toronto.start(ofDay: march8)
    let end = Self.toronto.start(ofDay: march8 + 1)
    #expect(start == Self.ms("2026-03-08T05:00:00Z"))
    #expect(end - start == 23 * 3_600_000)
    let october25 = ISO8601Millis.days(year: 2026, month: 10, day: 25)
    #expect(Self.paris.start(ofDay: october25 + 1) - Self.paris.start(ofDay: october25) == 25 * 3_600_000)
  }

  @Test("A local time that the change skips maps to the change; one that happens twice to its first occurrence")
  func gapsAndOverlaps() {
    let march8 = ISO8601Millis.days(year: 2026, month: 3, day: 8) * LocalCalendar.millisecondsPerDay
    #expect(Self.toronto.instant(atLocal: march8 + 150 * 60_000) == Self.ms("2026-03-08T07:00:00Z"))
    let october25 = ISO8601Millis.days(year: 2026, month: 10, day: 25) * LocalCalendar.millisecondsPerDay
    #expect(Self.paris.instant(atLocal: october25 + 150 * 60_000) == Self.ms("2026-10-25T00:30:00Z"))
  }

  @Test("Weeks start on Monday at local midnight and months on the first, as half-open periods")
  func periods() {
    let weeks = Self.paris.periods(
      .week, from: Self.ms("2026-10-21T12:00:00Z"), to: Self.ms("2026-10-27T00:00:00Z"))
    #expect(
      weeks.map { [Self.paris.format($0.startMilliseconds), Self.paris.format($0.endMilliseconds)] } == [
        ["2026-10-19T00:00:00.000+02:00", "2026-10-26T00:00:00.000+01:00"],
        ["2026-10-26T00:00:00.000+01:00", "2026-11-02T00:00:00.000+01:00"],
      ])
    let months = Self.toronto.periods(
      .month, from: Self.ms("2026-02-15T00:00:00Z"), to: Self.ms("2026-03-02T00:00:00Z"))
    #expect(
      months.map { Self.toronto.format($0.startMilliseconds) } == [
        "2026-02-01T00:00:00.000-05:00", "2026-03-01T00:00:00.000-05:00",
      ])
    #expect(months.last.map { Self.toronto.format($0.endMilliseconds) } == "2026-04-01T00:00:00.000-04:00")
    #expect(LocalCalendar.weekdayIndex(ofDay: ISO8601Millis.days(year: 2026, month: 1, day: 12)) == 0)
    #expect(LocalCalendar.weekdayIndex(ofDay: ISO8601Millis.days(year: 2026, month: 3, day: 8)) == 6)
  }

  @Test("The time of day is wall-clock time, also on a daylight-saving day")
  func timeOfDay() {
    #expect(Self.toronto.timeOfDayMilliseconds(Self.ms("2026-03-08T11:00:00Z")) == 7 * 3_600_000)
    #expect(Self.toronto.timeOfDayMilliseconds(Self.ms("2026-03-08T04:00:00Z")) == 23 * 3_600_000)
  }
}
