import Foundation
import Testing

@testable import Reports

@Suite("ReportBound")
struct ReportBoundTests {
  @Test("A date is local midnight in each station's zone; a time with a zone is that instant")
  func parses() throws {
    let date = try #require(ReportBound("2026-03-08"))
    let toronto = LocalCalendar(
      timeZone: .toronto, fromMilliseconds: 1_772_000_000_000, toMilliseconds: 1_773_000_000_000)
    let paris = LocalCalendar(timeZone: .paris, fromMilliseconds: 1_772_000_000_000, toMilliseconds: 1_773_000_000_000)
    #expect(toronto.format(date.milliseconds(on: toronto)) == "2026-03-08T00:00:00.000-05:00")
    #expect(paris.format(date.milliseconds(on: paris)) == "2026-03-08T00:00:00.000+01:00")
    let instant = try #require(ReportBound("2026-03-08T06:00:00-05:00"))
    #expect(instant.milliseconds(on: paris) == ISO8601Millis.parseMillisecondsSince1970("2026-03-08T11:00:00Z"))
  }

  @Test(
    "A time with its zone may leave its seconds out",
    arguments: [
      ("2026-03-08T06:00-05:00", "2026-03-08T11:00:00Z"), ("2026-03-08T06:30Z", "2026-03-08T06:30:00Z"),
      ("2026-03-08T23:59+14:00", "2026-03-08T09:59:00Z"),
    ])
  func minutes(text: String, same: String) throws {
    #expect(try #require(ReportBound(text)) == .instant(try #require(ISO8601Millis.parseMillisecondsSince1970(same))))
  }

  @Test(
    "Anything else is refused",
    arguments: [
      "2026-02-30", "2026-3-8", "08.03.2026", "2026-03-08T06:00", "", "tomorrow", "2026-03-08T6:00Z",
      "2026-03-08T06:0Z", "2026-03-08T06-00Z", "2026-03-08T24:00Z", "2026-03-08T06:00+5", "2026-03-08T06:00:Z",
      "2026-03-08T06Z",
    ])
  func refuses(text: String) {
    #expect(ReportBound(text) == nil)
  }
}
