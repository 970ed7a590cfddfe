import Foundation

/// Progress of long work on stderr: a line rewritten in place on a terminal, a line every few seconds otherwise.
/// Main thread only.
final class ProgressReporter {
  private let isTerminal = isatty(STDERR_FILENO) != 0
  private var lastPrint = Date.distantPast
  private var lastLength = 0
  private let interval: TimeInterval
  /// Nothing is shown before this: work that ends sooner needs no progress line.
  private let quietUntil: Date

  /// - Parameter quietSeconds: how long after now nothing is shown, not even a forced update.
  init(quietSeconds: TimeInterval = 0) {
    interval = isatty(STDERR_FILENO) != 0 ? 0.2 : 5
    quietUntil = Date(timeIntervalSinceNow: quietSeconds)
  }

  /// Shows `message` unless the last one was shown less than an interval ago (or `force`), or it is still quiet. The
  /// message is made only when it is shown: callers report once per buffer, and formatting it each time cost a scan
  /// 7 % of its CPU.
  func update(_ message: @autoclosure () -> String, force: Bool = false) {
    let now = Date()
    guard now > quietUntil, force || now.timeIntervalSince(lastPrint) >= interval else { return }
    lastPrint = now
    let message = message()
    if isTerminal {
      let pad = String(repeating: " ", count: max(0, lastLength - message.count))
      StandardStream.write("\r\(message)\(pad)", to: STDERR_FILENO)
      lastLength = message.count
    } else {
      StandardStream.write("\(message)\n", to: STDERR_FILENO)
    }
  }

  /// Ends the progress line.
  func finish() {
    if isTerminal && lastLength > 0 { StandardStream.write("\n", to: STDERR_FILENO) }
    lastLength = 0
  }
}

/// Writes a line to stderr.
func printError(_ message: String) {
  StandardStream.write(message + "\n", to: STDERR_FILENO)
}
