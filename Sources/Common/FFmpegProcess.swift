import CSpawn
import Foundation

/// One ffmpeg (or ffprobe) child process with its standard output and standard error on pipes (socket pairs), started
/// with `posix_spawn`: the one launcher of the package, for decoding files (`AudioFileDecoder`) and for streams
/// (`StreamReader`).
///
/// The child gets no blocked signals and default signal actions (a thread's blocked SIGTERM would otherwise be
/// inherited and make `terminate()` wait for SIGKILL), standard input from /dev/null, and its own process group (a
/// Ctrl-C in the daemon's terminal does not reach it: the daemon stops it). The pipes are close-on-exec, so no other
/// child inherits them, this child inherits no other descriptor (`spawn`), and the parent's ends are non-blocking, for
/// `poll`. The process is always reaped (`waitpid`), by `waitForExit`, `terminate` or at the latest when the value is
/// released: it never stays a zombie.
///
/// Threads: one thread at a time (the thread that starts it and waits for it).
package final class FFmpegProcess {
  /// How a process ended.
  package enum Termination: Equatable, CustomStringConvertible {
    case exited(status: Int32)
    case signaled(Int32)
    /// Reaped by someone else (the process ignores SIGCHLD): gone, status unknown.
    case unknown

    package var description: String {
      switch self {
      case .exited(let status): return "ffmpeg exited with status \(status)"
      case .signaled(let signal): return "ffmpeg was killed by signal \(signal)"
      case .unknown: return "ffmpeg ended"
      }
    }
  }

  /// What one read of standard output gave.
  package enum Output: Equatable {
    /// This many bytes.
    case bytes(Int)
    /// Nothing now (the pipe is empty but open).
    case nothingYet
    /// End of file: ffmpeg closed its output (it is exiting).
    case end
  }

  /// How long `terminate` waits after SIGTERM before it sends SIGKILL.
  package static let terminateGraceSeconds = 2.0

  package let processID: pid_t
  /// Read end of the child's standard output; -1 once closed.
  package private(set) var outputDescriptor: Int32
  /// Read end of the child's standard error; -1 once closed (after end of file).
  package private(set) var errorDescriptor: Int32
  /// Set once the process has been reaped.
  package private(set) var termination: Termination?
  /// The end of what ffmpeg wrote to standard error, at most `errorTailLimit` bytes.
  private var errorTail: [UInt8] = []
  private static let errorTailLimit = 4096

  /// Starts `executable` (a path) with `arguments`.
  /// - Throws: `SpawnError` with the `errno` of the failure (no such program, too many open files …).
  package init(executable: String, arguments: [String]) throws(SpawnError) {
    let output = try Self.makePipe()
    let error: (read: Int32, write: Int32)
    do {
      error = try Self.makePipe()
    } catch let failure {
      close(output.read)
      close(output.write)
      throw failure
    }
    defer {
      close(output.write)
      close(error.write)
    }

    let pid: pid_t
    do {
      pid = try Self.spawn(
        executable: executable, arguments: arguments, environment: Self.inheritedEnvironment
      ) { files in
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&files, output.write, 1)
        posix_spawn_file_actions_adddup2(&files, error.write, 2)
      }
    } catch let failure {
      close(output.read)
      close(error.read)
      throw failure
    }
    processID = pid
    outputDescriptor = output.read
    errorDescriptor = error.read
  }

  /// Starts `executable` (a path) with `arguments` and `environment` as every child of the package starts: with no
  /// blocked signals and default signal actions, in its own process group, and with no descriptor but its standard
  /// streams, which `files` sets up (a descriptor the monitor was started with, without close-on-exec, would otherwise
  /// live on in an alert command that outlives it). The one `posix_spawn` of the package (ffmpeg, ffprobe, the alert
  /// command, and the tests' servers, which pass `ownProcessGroup: false` so that a Ctrl-C in the test's terminal
  /// reaches them too). Callers start the environment from `inheritedEnvironment`.
  /// - Returns: its process id.
  /// - Throws: `SpawnError` with the `errno` of the failure.
  package static func spawn(
    executable: String, arguments: [String], environment: [String: String], ownProcessGroup: Bool = true,
    files setUp: (inout posix_spawn_file_actions_t) -> Void
  ) throws(SpawnError) -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes,
      Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))

    var files = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&files)
    defer { posix_spawn_file_actions_destroy(&files) }
    setUp(&files)
    cspawn_close_inherited(&files)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable, &files, &attributes, argv, envp)
    guard code == 0 else { throw SpawnError(code: code) }
    return pid
  }

  /// The environment variables of systemd's notify protocol (sd_notify(3), sd_watchdog_enabled(3)), which address
  /// the service's main process.
  private static let notifyVariables: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

  /// The environment a child starts with: this process's, less `notifyVariables`. A child that called
  /// `systemd-notify` with them would speak for the monitor (under the default `NotifyAccess=main`, systemd logs its
  /// message as refused); a test's child would notify the socket a test of this process set for a moment.
  package static var inheritedEnvironment: [String: String] {
    childEnvironment(of: ProcessInfo.processInfo.environment)
  }

  /// `environment` less `notifyVariables`.
  package static func childEnvironment(of environment: [String: String]) -> [String: String] {
    environment.filter { !notifyVariables.contains($0.key) }
  }

  /// The path of the program `name` (a path, or a name looked up on PATH), nil when there is none.
  package static func executable(named name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
      let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
        FileManager.default.isExecutableFile(atPath: candidate)
      {
        return candidate
      }
    }
    return nil
  }

  /// Runs `program` (ffprobe, say) to its end and returns what it wrote on standard output (at most `limitBytes`),
  /// or nil when it cannot be started or does not exit 0.
  package static func output(of program: String, arguments: [String], limitBytes: Int = 1 << 20) -> [UInt8]? {
    guard let executable = executable(named: program),
      let process = try? FFmpegProcess(executable: executable, arguments: arguments)
    else { return nil }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    reading: while output.count < limitBytes {
      switch chunk.withUnsafeMutableBytes({ process.readOutput(into: $0) }) {
      case .end: break reading
      case .nothingYet: process.awaitOutput()
      case .bytes(let n): output += chunk[0..<n]
      }
    }
    let ended = process.waitForExit(seconds: outputExitWaitSeconds) ?? process.terminate()
    return ended == .exited(status: 0) ? output : nil
  }

  /// How long `output(of:arguments:)` waits for a program to exit once its output has ended.
  static let outputExitWaitSeconds = 30.0

  /// Waits until standard output has something to read or has ended (up to `timeoutMilliseconds`, -1 for no
  /// limit), reading what comes on standard error meanwhile, so that a process that writes much there never blocks
  /// on a full pipe.
  package func awaitOutput(timeoutMilliseconds: Int32 = -1) {
    guard outputDescriptor >= 0 else { return }
    var fds = [pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)]
    if errorDescriptor >= 0 { fds.append(pollfd(fd: errorDescriptor, events: Int16(POLLIN), revents: 0)) }
    while poll(&fds, nfds_t(fds.count), timeoutMilliseconds) < 0 && errno == EINTR {}
    if fds.count > 1, fds[1].revents != 0 { drainErrors() }
  }

  deinit {
    if termination == nil { _ = terminate() }
    closeOutput()
    closeError()
  }

  /// Why ffmpeg could not be started.
  package struct SpawnError: Error, Equatable, CustomStringConvertible {
    /// The `errno` value.
    package var code: Int32
    package init(code: Int32) { self.code = code }
    package var description: String { String(cString: strerror(code)) }
  }

  /// The last non-empty line ffmpeg wrote to standard error, without its `[demuxer @ 0x…] ` prefix; nil if none.
  /// A last line that only says "Input/output error" (ffmpeg's word for any failure of a protocol, a host name that
  /// does not resolve among them) comes after the line that names the cause: that one is put before it.
  package var lastMessage: String? {
    let text = String(decoding: errorTail, as: UTF8.self)
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    func withoutPrefix(_ line: String) -> String {
      var message = Substring(line)
      if message.hasPrefix("["), let end = message.range(of: "] ") { message = message[end.upperBound...] }
      return String(message)
    }
    guard let last = lines.last.map(withoutPrefix) else { return nil }
    if last.hasSuffix("Input/output error"), lines.count >= 2 {
      return String((withoutPrefix(lines[lines.count - 2]) + "; " + last).prefix(300))
    }
    return String(last.prefix(300))
  }

  /// Reads what is waiting on standard output into `buffer`, without blocking.
  package func readOutput(into buffer: UnsafeMutableRawBufferPointer) -> Output {
    guard outputDescriptor >= 0, let base = buffer.baseAddress, buffer.count > 0 else { return .end }
    while true {
      let n = read(outputDescriptor, base, buffer.count)
      if n > 0 { return .bytes(n) }
      if n == 0 { return .end }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .nothingYet }
      return .end  // EIO and the like: treat as the end of the output
    }
  }

  /// Reads what is waiting on standard error, without blocking, keeping its end for `lastMessage`. Closes the pipe
  /// at end of file.
  package func drainErrors() {
    guard errorDescriptor >= 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(errorDescriptor, $0.baseAddress, $0.count) }
      if n > 0 {
        errorTail.append(contentsOf: chunk[0..<n])
        if errorTail.count > Self.errorTailLimit { errorTail.removeFirst(errorTail.count - Self.errorTailLimit) }
        continue
      }
      if n < 0 && errno == EINTR { continue }
      if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { closeError() }
      return
    }
  }

  /// Stops reading standard output; ffmpeg's next write fails (EPIPE) and it exits.
  package func closeOutput() {
    if outputDescriptor >= 0 {
      close(outputDescriptor)
      outputDescriptor = -1
    }
  }

  /// Waits up to `seconds` for the process to exit and reaps it. Returns nil when it is still running.
  package func waitForExit(seconds: Double) -> Termination? {
    if let termination { return termination }
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      if reap(blocking: false) { return termination }
      if Date() >= deadline { return nil }
      usleep(10_000)
    }
  }

  /// Ends the process: closes its output, sends SIGTERM, waits `terminateGraceSeconds`, then sends SIGKILL, and
  /// reaps it. Returns at once when it has already been reaped. Reads what it wrote to standard error meanwhile.
  @discardableResult
  package func terminate() -> Termination {
    if let termination { return termination }
    closeOutput()
    kill(processID, SIGTERM)
    if let ended = waitForExit(seconds: Self.terminateGraceSeconds) {
      drainErrors()
      return ended
    }
    kill(processID, SIGKILL)
    _ = reap(blocking: true)
    drainErrors()
    return termination ?? .signaled(SIGKILL)
  }

  /// Calls `waitpid`; true once the process is reaped (also when it cannot be waited for any more).
  private func reap(blocking: Bool) -> Bool {
    var status: Int32 = 0
    while true {
      let result = waitpid(processID, &status, blocking ? 0 : WNOHANG)
      if result == processID {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import from the C macros.
        let signal = status & 0x7f
        termination = signal == 0 ? .exited(status: (status >> 8) & 0xff) : .signaled(signal)
        return true
      }
      if result == 0 { return false }
      if errno == EINTR { continue }
      termination = .unknown  // ECHILD: reaped elsewhere (SIGCHLD ignored); it is gone either way
      return true
    }
  }

  private func closeError() {
    if errorDescriptor >= 0 {
      close(errorDescriptor)
      errorDescriptor = -1
    }
  }

  /// A connected pair of Unix stream sockets (used like a pipe), both ends close-on-exec from the start, the first
  /// (the parent's) non-blocking. `socketpair` sets close-on-exec atomically, unlike `pipe` plus `fcntl`, whose gap
  /// would let a child spawned meanwhile by another thread inherit the write end and keep it open.
  package static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
      throw SpawnError(code: errno)
    }
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    return (fds[0], fds[1])
  }
}
