import Testing

@testable import Reports

@Suite("FixedDecimal")
struct FixedDecimalTests {
  @Test(
    "Numbers print with exactly the requested decimals",
    arguments: [
      (1.04, 4, "1.0400"), (192.345, 3, "192.345"), (192.5, 3, "192.500"), (-0.5, 3, "-0.500"),
      (0.9876, 3, "0.988"), (0.0005, 3, "0.001"), (-0.0004, 3, "0.000"), (2, 0, "2"), (-2.5, 0, "-3"),
      (123_456_789.125, 3, "123456789.125"), (0.05, 1, "0.1"),
    ] as [(Double, Int, String)])
  func fixedDecimals(value: Double, places: Int, text: String) {
    #expect(FixedDecimal.format(value, places: places) == text)
  }

  @Test("Values that are not finite give an empty cell")
  func notFiniteIsEmpty() {
    #expect(FixedDecimal.format(.nan, places: 3) == "")
    #expect(FixedDecimal.format(.infinity, places: 3) == "")
  }
}
