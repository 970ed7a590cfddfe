import Foundation

/// A key the console reacts to.
enum ConsoleKey: Equatable, Sendable {
  case up, down, pageUp, pageDown, home, end, enter, escape
  /// `q` or `Q`.
  case quit
  /// Ctrl-C, read as a byte in raw mode: the console treats it like SIGINT.
  case interrupt
  case other
}
