import Foundation

/// One writer's exclusive claim on a play log: the monitor (`run`) holds it for its lifetime, `scan --db` while it
/// writes. Two writers on one play log spoil the evidence: the second one's start marks the first one's running
/// plays `recovered` and logs a restart that did not happen, and a channel both monitor is logged twice. Reports take
/// no lock: the play log is in WAL mode, so they read while the monitor writes.
///
/// The claim is an `flock(2)` lock (`LOCK_EX | LOCK_NB`) on a lock file beside the play log, `PLAYLOG.lock`. Each
/// owner rewrites the file when it takes the lock with its pid, host name, start time and command (see ``Owner``),
/// so that a refused writer can name the running one. The file is never deleted: deleting it while another process
/// opens it would let the two lock two different files. The kernel releases the lock when the owner's last
/// descriptor closes, which happens however the process ends (exit, crash, SIGKILL), so a restart never finds a stale
/// lock. The descriptor is close-on-exec: an ffmpeg child that outlives a killed monitor does not keep the lock.
///
/// Why a lock file and not a lock on the database itself: SQLite locks the database with `fcntl(2)` record locks,
/// which belong to the process and are all dropped when the process closes *any* descriptor of the file; a second
/// descriptor opened to lock the database would drop SQLite's locks whenever it is closed. Linux keeps `flock` and
/// `fcntl` locks apart on a local file system, but on NFS it emulates `flock` with an `fcntl` lock on the whole file,
/// which would then collide with SQLite's own byte-range locks. A separate file has neither problem.
///
/// Threads: one thread at a time. The lock is held until ``release()``, deinit or the end of the process.
public final class PlayLogLock {
  /// Who holds a play log's lock, as its lock file says: `pid=…`, `host=…`, `since=…` (ISO 8601 UTC) and `command=…`
  /// lines.
  public struct Owner: Sendable, Equatable {
    public var pid: Int32
    public var host: String
    public var since: Date
    /// The subcommand that holds the lock: "run" or "scan".
    public var command: String

    public init(pid: Int32, host: String, since: Date, command: String) {
      self.pid = pid
      self.host = host
      self.since = since
      self.command = command
    }

    /// This process, now.
    static func current(command: String) -> Owner {
      var name = [CChar](repeating: 0, count: 256)
      let host =
        gethostname(&name, name.count - 1) == 0
        ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
      return Owner(pid: getpid(), host: host, since: Date(), command: command)
    }

    /// The lock file's contents.
    var fileText: String {
      "pid=\(pid)\nhost=\(host)\nsince=\(ISO8601Millis.format(since))\ncommand=\(command)\n"
    }

    /// The owner a lock file names, or nil when it names none (empty, or damaged).
    init?(fileText: String) {
      var fields: [Substring: Substring] = [:]
      for line in fileText.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        fields[line[..<equals]] = line[line.index(after: equals)...]
      }
      guard let pid = fields["pid"].flatMap({ Int32($0) }), let host = fields["host"],
        let since = fields["since"].flatMap({ ISO8601Millis.parse(String($0)) }), let command = fields["command"]
      else { return nil }
      self.init(pid: pid, host: String(host), since: since, command: String(command))
    }
  }

  /// The lock file of the play log at `playLogPath`: beside the file the path leads to, symbolic links followed (of
  /// the file and of its folders), so that a play log named through a link has the lock of the file itself. Without
  /// that, a monitor on `plays.sqlite` and another on a link to it would each take a lock of their own, and both
  /// write the one play log (every airing twice, the first monitor's running plays marked `recovered`). A play log
  /// not yet made has the lock beside where it will be. (Two hard links to one file are two names SQLite cannot
  /// tell apart either; they are not looked for.)
  public static func lockPath(forPlayLog playLogPath: String) -> String { resolved(playLogPath) + ".lock" }

  /// `path` with its symbolic links followed: the file's real path, or, for a file not there yet, its folder's real
  /// path and its name; as given when neither resolves.
  static func resolved(_ path: String) -> String {
    if let real = realPath(path) { return real }
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    guard let realFolder = realPath(folder.isEmpty ? "." : folder) else { return path }
    return (realFolder == "/" ? "" : realFolder) + "/" + url.lastPathComponent
  }

  private static func realPath(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  /// The play log, as given.
  public let playLogPath: String
  /// The lock file.
  public let lockPath: String
  /// The open lock file; -1 once released, and for ":memory:", which no other process can open.
  private var descriptor: Int32

  /// Takes the lock of the play log at `playLogPath` (creating its lock file if needed) for `command`, without
  /// waiting.
  /// - Throws: ``PlayLogLockError/held(playLog:lockPath:owner:)`` when another process holds it;
  ///   ``PlayLogLockError/unusable(playLog:lockPath:reason:)`` when the lock file cannot be created or locked.
  public init(playLog playLogPath: String, command: String) throws {
    self.playLogPath = playLogPath
    lockPath = Self.lockPath(forPlayLog: playLogPath)
    guard playLogPath != ":memory:" else {
      descriptor = -1
      return
    }
    // O_NOFOLLOW: a symbolic link planted at the lock file's name must not make the monitor truncate another file.
    descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    if descriptor < 0 && errno == EACCES {
      // A lock file another user created (a scan run as root) cannot be written, but `flock` needs only a read
      // descriptor: the lock still works, without the owner's details.
      descriptor = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    }
    guard descriptor >= 0 else {
      throw PlayLogLockError.unusable(
        playLog: playLogPath, lockPath: lockPath, reason: String(cString: strerror(errno)))
    }
    var result: Int32
    repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
    guard result == 0 else {
      let error = errno
      let owner = error == EWOULDBLOCK ? Self.owner(readingFrom: descriptor) : nil
      close(descriptor)
      descriptor = -1
      guard error == EWOULDBLOCK else {
        throw PlayLogLockError.unusable(
          playLog: playLogPath, lockPath: lockPath, reason: String(cString: strerror(error)))
      }
      throw PlayLogLockError.held(playLog: playLogPath, lockPath: lockPath, owner: owner)
    }
    // The owner's details only help a refused writer's message: a disk too full to write them must not stop the
    // monitor, which keeps its plays in memory until the play log can be written again.
    let text = Array(Owner.current(command: command).fileText.utf8)
    if ftruncate(descriptor, 0) == 0 {
      _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
  }

  deinit { release() }

  /// Gives the lock up (closing the lock file, which stays on disk). Calling it again does nothing.
  public func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  /// The owner named in the lock file open at `descriptor`. The owner rewrites the file right after it takes the
  /// lock, so an empty file is read again a few times (for at most `ownerWaitSeconds`) before giving up.
  private static func owner(readingFrom descriptor: Int32) -> Owner? {
    let deadline = Date().addingTimeInterval(ownerWaitSeconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0, let owner = Owner(fileText: String(decoding: buffer[..<count], as: UTF8.self)) { return owner }
      guard Date() < deadline else { return nil }
      usleep(10_000)
    }
  }

  /// How long a refused writer waits for a lock file that was just taken to name its owner: the owner writes it
  /// microseconds after taking the lock, so this is only reached when the owner was stopped in between.
  private static let ownerWaitSeconds = 0.2
}
