import Foundation

/// The terminal while the console owns it: raw mode on the keyboard (no echo, no line editing, Ctrl-C read as a
/// byte), the alternate screen (the shell's screen comes back untouched afterwards), the cursor hidden and line wrap
/// off. `restore()` undoes all of it; it runs on every way out: `q`, SIGINT and SIGTERM (the console returns and the
/// caller restores), an error (`deinit`), and a crash (a handler for the fatal signals restores the terminal with
/// async-signal-safe calls only, then lets the signal kill the process as before).
///
/// Threads: the control thread creates and restores it; the crash handler may run on any thread.
final class TerminalMode {
  /// The descriptor the screen is written to.
  let output: Int32
  /// The descriptor keys are read from, or nil when standard input is not a terminal (no keys then).
  let input: Int32?
  private var saved: termios?
  private var active = false

  /// The sequence that leaves the console's screen: attributes off, wrap on, cursor shown, main screen back.
  static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
  /// The sequence that enters it: alternate screen, cursor hidden, wrap off, screen cleared.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"

  /// Enters raw mode on `input` (when it is a terminal) and the alternate screen on `output`.
  /// - Throws: `TerminalError` when `output` is not a terminal or its size cannot be read.
  init(output: Int32 = STDOUT_FILENO, input: Int32 = STDIN_FILENO) throws(TerminalError) {
    guard isatty(output) == 1, Self.size(of: output) != nil else {
      throw TerminalError(description: "standard output is not a terminal whose size can be read")
    }
    self.output = output
    self.input = isatty(input) == 1 ? input : nil
    if let input = self.input {
      var original = termios()
      if tcgetattr(input, &original) == 0 {
        saved = original
        var raw = original
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
          cc[Int(VMIN)] = 0
          cc[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSADRAIN, &raw)
      }
    }
    active = true
    CrashRestore.install(input: self.input ?? -1, saved: saved, output: output)
    try? write(Self.enterSequence)
  }

  deinit { restore() }

  /// Leaves the alternate screen and restores the keyboard's mode. Calling it again does nothing.
  func restore() {
    guard active else { return }
    active = false
    try? write(Self.leaveSequence)
    if let input, var saved { tcsetattr(input, TCSADRAIN, &saved) }
    CrashRestore.uninstall()
  }

  /// Writes `text` in as few `write(2)` calls as the terminal takes.
  /// - Throws: `TerminalError` when the terminal is gone (a closed SSH session: EIO).
  func write(_ text: String) throws(TerminalError) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        Foundation.write(output, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw TerminalError(description: "cannot write to the terminal: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
    bytes.removeAll()
  }

  /// The terminal's size in columns and rows, nil when it cannot be read.
  static func size(of descriptor: Int32) -> (width: Int, height: Int)? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The size of this terminal.
  var size: (width: Int, height: Int) { Self.size(of: output) ?? (80, 24) }
}

/// Why the terminal cannot be used.
struct TerminalError: Error, CustomStringConvertible {
  var description: String
}

/// The terminal's state for the fatal-signal handler: plain C values, written before the handler is installed.
nonisolated(unsafe) private var crashInput: Int32 = -1
nonisolated(unsafe) private var crashOutput: Int32 = -1
nonisolated(unsafe) private var crashSaved = termios()
nonisolated(unsafe) private var crashHasSaved = false
/// The signals and the actions they had before, allocated once: the handler must not touch Swift arrays.
private let crashSignalCount = 7
nonisolated(unsafe) private let crashSignals: UnsafeMutablePointer<Int32> = {
  let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: crashSignalCount)
  for (i, signal) in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGQUIT].enumerated() {
    (pointer + i).initialize(to: signal)
  }
  return pointer
}()
nonisolated(unsafe) private let crashPrevious: UnsafeMutablePointer<sigaction> = {
  let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: crashSignalCount)
  pointer.initialize(repeating: sigaction(), count: crashSignalCount)
  return pointer
}()
nonisolated(unsafe) private var crashInstalled = false

/// Restores the terminal when the process dies of a fatal signal (a trap, an abort, a bad access), so that a crash
/// never leaves the shell in raw mode on the alternate screen. The handler then puts back the handler that was
/// there before (Swift's backtracer, or the default action) and lets the signal reach it, so the crash is reported
/// as it would have been. It calls only `write(2)`, `tcsetattr(3)`, `sigaction(2)` and `raise(3)`, which are
/// async-signal-safe.
private enum CrashRestore {
  static func install(input: Int32, saved: termios?, output: Int32) {
    _ = crashLeaveBytes.count  // Swift globals initialize lazily: never for the first time in the handler
    crashInput = input
    crashOutput = output
    crashHasSaved = saved != nil
    if let saved { crashSaved = saved }
    for i in 0..<crashSignalCount {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = terminalCrashHandler
      sigemptyset(&action.sa_mask)
      sigaction(crashSignals[i], &action, crashPrevious + i)
    }
    crashInstalled = true
  }

  static func uninstall() {
    guard crashInstalled else { return }
    crashInstalled = false
    for i in 0..<crashSignalCount { sigaction(crashSignals[i], crashPrevious + i, nil) }
    crashOutput = -1
  }
}

nonisolated(unsafe) private let crashLeaveBytes: UnsafeMutableBufferPointer<UInt8> = {
  let bytes = Array(TerminalMode.leaveSequence.utf8)
  let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
  _ = buffer.initialize(from: bytes)
  return buffer
}()

/// The fatal-signal handler: restores the terminal, puts the previous handler back and raises the signal again; it
/// is delivered to that handler as soon as this one returns (a fault repeats its instruction and faults again).
private func terminalCrashHandler(_ signal: Int32) {
  if crashOutput >= 0 { _ = write(crashOutput, crashLeaveBytes.baseAddress, crashLeaveBytes.count) }
  if crashHasSaved && crashInput >= 0 { tcsetattr(crashInput, TCSANOW, &crashSaved) }
  for i in 0..<crashSignalCount where crashSignals[i] == signal {
    sigaction(signal, crashPrevious + i, nil)
  }
  if signal != SIGSEGV && signal != SIGBUS && signal != SIGILL && signal != SIGFPE { raise(signal) }
}
