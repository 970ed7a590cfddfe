/// Where a report's table goes, one record at a time: a CSV file (``CSVWriter``) or SoundExchange's pipe-delimited
/// text (``PipeDelimitedWriter``).
///
/// Implementations write the fields in order and end the record; `text` fields are guarded against spreadsheet
/// formulas, `number` fields are written verbatim.
package protocol ReportRowSink: AnyObject {
  /// How ``writeEncodedRow(_:)`` expects its bytes to be encoded.
  var rowStyle: ReportRowEncoder.Style { get }

  /// Writes one record.
  func writeRow(_ fields: [CSVField]) throws

  /// Writes one record that a ``ReportRowEncoder`` of ``rowStyle`` built (without its line ending).
  func writeEncodedRow(_ bytes: [UInt8]) throws
}

extension CSVWriter: ReportRowSink {
  package var rowStyle: ReportRowEncoder.Style { .csv }
}
