/// A traffic log (`schedule import`) has a line the import cannot read; the message names the file, the line, the
/// column and the fix.
///
/// A value type: safe to pass between threads.
package struct TrafficLogError: Error, CustomStringConvertible, Sendable, Equatable {
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
