import Foundation
import TestSupport
import Testing

/// A program running in a tmux pane of a fixed size, on a private tmux server (its own socket in a test folder), so
/// that a test sees the screen as a person would: `capture()` is the pane's text, `keys` types, `resize` changes
/// the window's size as a terminal window would.
///
/// Threads: one test at a time.
final class TmuxSession {
  static let isInstalled = BackgroundProcess.path(of: "tmux") != nil
  static let notInstalled: Comment = "needs tmux (scripts/setup.sh installs it)"

  private let socket: String
  private let tmux: String

  /// Starts `command` (a shell command line) in a new detached session of `width` × `height`.
  init(command: String, width: Int, height: Int, socket: String) throws {
    tmux = try #require(BackgroundProcess.path(of: "tmux"), Self.notInstalled)
    self.socket = socket
    let result = try run(["new-session", "-d", "-s", "bm", "-x", "\(width)", "-y", "\(height)", command])
    try #require(result.status == 0, "tmux new-session failed (\(String(describing: result.status))): \(result.output)")
  }

  deinit { _ = try? run(["kill-server"]) }

  /// Runs a tmux command and returns what it printed. Spawned with `posix_spawn` and reaped with `waitpid`
  /// (`BackgroundProcess`): tmux's client forks the server, and Foundation's `Process` was seen never to notice
  /// that client's exit under the test runner.
  @discardableResult
  private func run(_ arguments: [String]) throws -> (status: Int32?, output: String) {
    let output = socket + ".out-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: output) }
    // A known terminal type for the server; the pane's programs get tmux's own (screen or tmux-256color).
    let process = try BackgroundProcess(
      executable: tmux, arguments: ["-S", socket] + arguments, environment: ["TERM": "xterm-256color"],
      outputPath: output)
    let status = process.waitForExit(seconds: 10)
    return (status, process.output)
  }

  /// The pane's text now, one string per row (tmux drops trailing spaces).
  func capture() throws -> [String] {
    let result = try run(["capture-pane", "-p", "-t", "bm"])
    return result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Types `keys` (tmux key names such as `Down`, `Enter`, `Escape`, `q`).
  func send(_ keys: String...) throws {
    try run(["send-keys", "-t", "bm"] + keys)
  }

  /// Resizes the window, as when a person resizes the terminal (the program gets SIGWINCH).
  func resize(width: Int, height: Int) throws {
    try run(["resize-window", "-t", "bm", "-x", "\(width)", "-y", "\(height)"])
  }

  /// Waits until `condition` holds for the pane's text; returns that text. Blocks the thread (see DEVELOPERS.md).
  @discardableResult
  func waitFor(_ what: String, seconds: Double = 30, _ condition: ([String]) -> Bool) throws -> [String] {
    let deadline = Date().addingTimeInterval(seconds)
    var screen: [String] = []
    repeat {
      screen = try capture()
      if condition(screen) { return screen }
      Thread.sleep(forTimeInterval: 0.2)
    } while Date() < deadline
    Issue.record("\(what) not on the screen within \(seconds) s:\n\(screen.joined(separator: "\n"))")
    throw CancellationError()
  }
}
