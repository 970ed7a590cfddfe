/// Writing a CSV file failed.
///
/// A value type: safe to pass between threads.
package struct CSVWriteError: Error, CustomStringConvertible, Sendable {
  /// Where the CSV was going (a path).
  package let destination: String
  /// What the system said.
  package let reason: String

  package init(destination: String, reason: String) {
    self.destination = destination
    self.reason = reason
  }

  package var description: String {
    "cannot write CSV to \(destination): \(reason). Check that the disk has space and the file is writable; "
      + "the CSV is incomplete."
  }
}
