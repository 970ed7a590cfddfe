import Testing

@testable import MonitorKit

@Suite("Nearest name")
struct NearestNameTests {
  @Test("A transposition, a missing or an extra letter is one edit")
  func distances() {
    #expect(NearestName.distance("scna", "scan") == 1)
    #expect(NearestName.distance("catalg", "catalog") == 1)
    #expect(NearestName.distance("matchh", "match") == 1)
    #expect(NearestName.distance("run", "run") == 0)
    #expect(NearestName.distance("", "feed") == 4)
  }

  @Test("The nearest name is suggested only when it is close")
  func nearest() {
    let names = CommandTable.commands.map(\.name)
    #expect(NearestName.nearest(to: "scna", in: names) == "scan")
    #expect(NearestName.nearest(to: "reprt", in: names) == "report")
    #expect(NearestName.nearest(to: "transmogrify", in: names) == nil)
    #expect(NearestName.nearest(to: "x", in: names) == nil)
  }
}
