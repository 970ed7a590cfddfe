/// Printing times straight into a byte buffer, for reports of millions of rows.
extension LocalCalendar {
  /// Appends `milliseconds` as ``format(_:)`` prints it, without building a string (years 0…9999; others go
  /// through ``format(_:)``).
  package func append(_ milliseconds: Int64, to bytes: inout [UInt8]) {
    let offset = printsZulu ? 0 : offsetMilliseconds(at: milliseconds)
    let local = milliseconds + offset
    let days = ISO8601Millis.floorDivision(local, Self.millisecondsPerDay)
    let (year, month, day) = ISO8601Millis.civilDate(fromDays: days)
    guard (0...9999).contains(year) else {
      bytes.append(contentsOf: format(milliseconds).utf8)
      return
    }
    let time = local - days * Self.millisecondsPerDay
    func two(_ value: Int64) {
      bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
      bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
    two(year / 100)
    two(year % 100)
    bytes.append(UInt8(ascii: "-"))
    two(month)
    bytes.append(UInt8(ascii: "-"))
    two(day)
    bytes.append(UInt8(ascii: "T"))
    two(time / 3_600_000)
    bytes.append(UInt8(ascii: ":"))
    two(time / 60_000 % 60)
    bytes.append(UInt8(ascii: ":"))
    two(time / 1000 % 60)
    bytes.append(UInt8(ascii: "."))
    let fraction = time % 1000
    bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
    two(fraction % 100)
    if printsZulu {
      bytes.append(UInt8(ascii: "Z"))
      return
    }
    bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
    let minutes = abs(offset) / 60_000
    two(minutes / 60)
    bytes.append(UInt8(ascii: ":"))
    two(minutes % 60)
  }
}
