import Common
import Foundation

/// A program running in the background for a test (a server, a stream source), started as the package starts its
/// children (`FFmpegProcess.spawn`): with no signal blocked and every signal at its default action, its output going
/// to a file, and no descriptor of the test process but /dev/null and that file. It stays in the test's process
/// group.
///
/// Foundation's `Process` passes on the spawning thread's signal mask, and the test runner's threads block SIGTERM:
/// a program started that way ignores `terminate()`. Spawning with a clean mask makes SIGTERM work. The test
/// process's other descriptors are closed in the child: a `Pipe` another test made at the same moment (Foundation's
/// are not close-on-exec) would otherwise stay open in a server that runs for minutes, so that its reader never saw
/// end of file, or its writer never EPIPE. Start servers under `timeout` (see `underTimeout`) so that they go away
/// even when the test process dies first.
/// Threads: use from one thread at a time.
public final class BackgroundProcess {
  public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
  }

  public let pid: pid_t
  /// Where the program's standard output and standard error go.
  public let outputPath: String
  private var exited = false
  /// The exit status (or 128 + the signal that killed it), once the process has been reaped.
  public private(set) var exitStatus: Int32?

  /// Starts `executable` (a path) with `arguments` and this process's environment
  /// (`FFmpegProcess.inheritedEnvironment`) plus `environment`, standard input from /dev/null, standard output and
  /// standard error to `outputPath` (created or truncated), and no other descriptor.
  public init(
    executable: String, arguments: [String], environment: [String: String] = [:], outputPath: String
  ) throws {
    do {
      pid = try FFmpegProcess.spawn(
        executable: executable, arguments: arguments,
        environment: FFmpegProcess.inheritedEnvironment.merging(environment) { _, new in new }, ownProcessGroup: false
      ) { files in
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&files, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&files, 1, 2)
      }
    } catch {
      throw SpawnError(description: "posix_spawn \(executable) failed: \(error)")
    }
    self.outputPath = outputPath
  }

  /// Starts `executable` under `/usr/bin/timeout -k 5 SECONDS`, so that it is stopped after `seconds` at the latest.
  /// SIGTERM to the `timeout` process reaches the program.
  public static func underTimeout(
    seconds: Int, executable: String, arguments: [String], outputPath: String
  ) throws -> BackgroundProcess {
    try BackgroundProcess(
      executable: "/usr/bin/timeout", arguments: ["-k", "5", "\(seconds)", executable] + arguments,
      outputPath: outputPath)
  }

  deinit { terminateAndWait() }

  /// What the program printed so far.
  public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

  /// True until the process has exited (reaps it when it has).
  public var isRunning: Bool {
    if exited { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid { reaped(status) }
    return !exited
  }

  /// Sends `signal` (SIGINT, SIGHUP, SIGKILL …) to the process, if it is still running.
  public func send(_ signal: Int32) {
    if isRunning { kill(pid, signal) }
  }

  /// Waits up to `seconds` for the process to exit; returns its exit status, or nil if it is still running.
  public func waitForExit(seconds: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    return exitStatus
  }

  /// `waitForExit(seconds:)` for async tests: polls every 10 ms without blocking a thread.
  public func exitStatus(within seconds: Double) async throws -> Int32? {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while isRunning {
      guard ContinuousClock.now < deadline else { return nil }
      try await Task.sleep(for: .milliseconds(10))
    }
    return exitStatus
  }

  private func reaped(_ status: Int32) {
    exited = true
    let signal = status & 0x7f
    exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  /// Sends SIGTERM and waits for the process to exit. Calling it again does nothing.
  public func terminateAndWait() {
    guard !exited else { return }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    reaped(status)
  }

  /// The full path of `name` on PATH, nil when it is not installed.
  public static func path(of name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"]
    return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
