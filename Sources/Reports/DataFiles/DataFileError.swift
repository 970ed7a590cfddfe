/// A data file that a command reads (a traffic log for `schedule import`, an Icecast access log or an hourly
/// audience CSV for `report soundexchange`) has a line that cannot be read; the message names the file, the line
/// and the fix.
///
/// A value type: safe to pass between threads.
package struct DataFileError: Error, CustomStringConvertible, Sendable, Equatable {
  package var path: String
  /// 1-based; 0 for the file as a whole.
  package var line: Int
  package var reason: String

  package init(path: String, line: Int, reason: String) {
    self.path = path
    self.line = line
    self.reason = reason
  }

  package var description: String {
    line == 0 ? "\(path): \(reason)" : "\(path):\(line): \(reason)"
  }
}
