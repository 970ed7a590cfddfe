/// Numbers with a fixed number of decimals for CSV reports ("1.0400"), without `String(format:)`: exact
/// for the sizes reports print, fast, and independent of the locale.
///
/// Stateless: safe to call from any thread.
enum FixedDecimal {
  /// `value` rounded to `places` decimals (0…9), halfway away from zero, always with `places` digits after the
  /// point; never "-0.000". Not-finite values give "" (an empty cell).
  static func format(_ value: Double, places: Int) -> String {
    precondition((0...9).contains(places), "FixedDecimal supports 0…9 places")
    guard value.isFinite else { return "" }
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
    guard abs(scaled) < 9e15 else {
      // Too large to print exactly through Int64: beyond anything a report holds; keep it readable anyway.
      return String(value)
    }
    let units = Int64(scaled)
    let magnitude = abs(units)
    var text = units < 0 ? "-" : ""
    text += String(magnitude / scale)
    guard places > 0 else { return text }
    let fraction = String(magnitude % scale)
    text += "." + String(repeating: "0", count: places - fraction.count) + fraction
    return text
  }
}
