/// One CSV cell and what kind of value it holds, which decides whether it is guarded against spreadsheet formulas.
///
/// A value type: safe to pass between threads.
package struct CSVField: Sendable, Hashable {
  package enum Kind: Sendable, Hashable {
    /// Text that came from outside the program (catalog metadata, channel names): a cell that starts like a
    /// formula is neutralized when written.
    case text
    /// A number or timestamp the program formatted itself ("-0.500", "2026-01-01T00:03:12.345Z"): written
    /// verbatim, so a negative number stays a number.
    case number
  }

  package var value: String
  package var kind: Kind

  package init(_ value: String, kind: Kind) {
    self.value = value
    self.kind = kind
  }

  /// A text cell, guarded against formulas.
  package static func text(_ value: String) -> CSVField { CSVField(value, kind: .text) }

  /// A number or timestamp cell, written verbatim.
  package static func number(_ value: String) -> CSVField { CSVField(value, kind: .number) }
}
