import Reports

/// Passes a report's rows on to another sink and counts them.
///
/// Thread: the command's (main) thread.
final class CountingRowSink: ReportRowSink {
  private let next: any ReportRowSink
  private(set) var rows = 0

  init(_ next: any ReportRowSink) { self.next = next }

  var rowStyle: ReportRowEncoder.Style { next.rowStyle }

  func writeRow(_ fields: [CSVField]) throws {
    rows += 1
    try next.writeRow(fields)
  }

  func writeEncodedRow(_ bytes: [UInt8]) throws {
    rows += 1
    try next.writeEncodedRow(bytes)
  }
}
