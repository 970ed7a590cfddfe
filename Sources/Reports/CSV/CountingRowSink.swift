/// Passes a report's rows on to another sink and counts them.
///
/// Thread: the thread that writes the report.
package final class CountingRowSink: ReportRowSink {
  private let next: any ReportRowSink
  package private(set) var rows = 0

  package init(_ next: any ReportRowSink) { self.next = next }

  package var rowStyle: ReportRowEncoder.Style { next.rowStyle }

  package func writeRow(_ fields: [CSVField]) throws {
    rows += 1
    try next.writeRow(fields)
  }

  package func writeEncodedRow(_ bytes: [UInt8]) throws {
    rows += 1
    try next.writeEncodedRow(bytes)
  }
}
