import Foundation
import Reports
import Testing

@testable import MonitorKit

@Suite("APIQuery")
struct APIQueryTests {
  func time(_ value: String) throws(APIQuery.Problem) -> Date? {
    try APIQuery([(name: "from", value: value)], allowed: ["from"], path: "/api/v1/plays").time("from")
  }

  @Test("A time may leave its seconds out; its zone's `+` may arrive as a space")
  func timesAsTyped() throws {
    let expected = ISO8601Millis.parse("2026-12-01T05:30:00Z")
    #expect(try time("2026-12-01T05:30:00Z") == expected)
    #expect(try time("2026-12-01T05:30Z") == expected)
    #expect(try time("2026-12-01T06:30 01:00") == expected, "`+01:00` sent as `+` in a query string")
    #expect(try time("2026-12-01T00:30-05:00") == expected)
  }

  @Test("A time without its zone, or with an hour alone, is refused naming the form to use")
  func timesRefused() throws {
    for text in ["2026-12-01T05:30", "2026-12-01T05Z", "2026-12-01"] {
      #expect(throws: APIQuery.Problem.self) { try time(text) }
    }
    do {
      _ = try time("2026-12-01T05:30")
    } catch {
      #expect(error.description.contains("use an ISO 8601 time with its zone, such as 2026-12-01T00:00:00Z"))
    }
  }
}
