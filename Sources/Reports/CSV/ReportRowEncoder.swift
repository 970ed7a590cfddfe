/// Builds the bytes of one record cell by cell, as its sink's format encodes them, without building a string per
/// cell: for reports of millions of rows (`plays`, `proof-of-play`). The same rules as ``CSVWriter`` (RFC 4180
/// quoting, formula neutralization) or ``PipeDelimitedWriter`` (`|`, CR, LF and tab become spaces, nothing else
/// changes).
///
/// Reuse one encoder for every row: ``reset()`` keeps its buffer. Cells that repeat (an item's title, a channel's
/// name) can be encoded once with ``encoded(_:)`` and appended with ``append(encoded:)``.
///
/// A value type; one thread at a time.
package struct ReportRowEncoder {
  /// Which sink the bytes are for.
  package enum Style: Sendable {
    case csv
    case pipe
  }

  package let style: Style
  /// The record so far, without its line ending.
  package private(set) var bytes: [UInt8] = []
  private var cells = 0

  package init(style: Style) {
    self.style = style
    bytes.reserveCapacity(512)
  }

  /// Empties the record, keeping the buffer.
  package mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    cells = 0
  }

  private mutating func separate() {
    if cells > 0 { bytes.append(style == .csv ? UInt8(ascii: ",") : UInt8(ascii: "|")) }
    cells += 1
  }

  /// The bytes of a text cell, neutralized and quoted (or, for pipes, only its separators cleaned) as the style
  /// wants.
  package func encoded(_ text: String) -> [UInt8] {
    switch style {
    case .csv:
      return Array(CSVWriter.encode(.text(text)).utf8)
    case .pipe:
      return text.utf8.map { byte in
        switch byte {
        case UInt8(ascii: "|"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"): UInt8(ascii: " ")
        default: byte
        }
      }
    }
  }

  /// Appends a text cell.
  package mutating func append(text: String) {
    append(encoded: encoded(text))
  }

  /// Appends a cell already encoded by ``encoded(_:)``.
  package mutating func append(encoded: [UInt8]) {
    separate()
    bytes.append(contentsOf: encoded)
  }

  /// Appends a number or timestamp the program formatted itself (no quoting or neutralization needed).
  package mutating func append(number text: String) {
    separate()
    bytes.append(contentsOf: text.utf8)
  }

  /// Appends a time as ``LocalCalendar/format(_:)`` prints it.
  package mutating func append(time milliseconds: Int64, on calendar: LocalCalendar) {
    separate()
    calendar.append(milliseconds, to: &bytes)
  }

  /// Appends `milliseconds / 1000` with three decimals (a duration or offset in seconds), as ``FixedDecimal``
  /// prints it.
  package mutating func append(milliseconds: Int64) {
    separate()
    if milliseconds < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = milliseconds.magnitude
    appendDigits(magnitude / 1000)
    bytes.append(UInt8(ascii: "."))
    let fraction = magnitude % 1000
    bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
    bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
    bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
  }

  /// Appends `value` with `places` decimals, as ``FixedDecimal`` prints it.
  package mutating func append(_ value: Double, places: Int) {
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
    guard (0...9).contains(places), value.isFinite, abs(scaled) < 9e15 else {
      append(number: FixedDecimal.format(value, places: places))
      return
    }
    separate()
    let units = Int64(scaled)
    if units < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = units.magnitude
    appendDigits(magnitude / UInt64(scale))
    guard places > 0 else { return }
    bytes.append(UInt8(ascii: "."))
    var divisor = UInt64(scale) / 10
    let fraction = magnitude % UInt64(scale)
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
      divisor /= 10
    }
  }

  private mutating func appendDigits(_ value: UInt64) {
    if value >= 10 { appendDigits(value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
