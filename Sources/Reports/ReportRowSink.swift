/// Where a report's table goes, one record at a time: a CSV file (``CSVWriter``) or SoundExchange's pipe-delimited
/// text (``PipeDelimitedWriter``).
///
/// Implementations write the fields in order and end the record; `text` fields are guarded against spreadsheet
/// formulas, `number` fields are written verbatim.
package protocol ReportRowSink: AnyObject {
  func writeRow(_ fields: [CSVField]) throws
}

extension CSVWriter: ReportRowSink {}
