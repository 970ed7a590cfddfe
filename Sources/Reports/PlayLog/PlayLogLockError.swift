/// A play log could not be claimed for writing (see ``PlayLogLock``).
///
/// A value type: safe to pass between threads.
public enum PlayLogLockError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Another process writes to the play log; `owner` is what its lock file says about it (nil when it says nothing).
  case held(playLog: String, lockPath: String, owner: PlayLogLock.Owner?)
  /// The lock file cannot be created or locked; `reason` is the system's.
  case unusable(playLog: String, lockPath: String, reason: String)

  /// True when another process holds the lock: the same command works once that one has ended.
  public var isHeld: Bool {
    if case .held = self { return true }
    return false
  }

  public var description: String {
    switch self {
    case .held(let playLog, let lockPath, let owner?):
      "play log \(playLog) is in use by another broadcast-monitor: `\(owner.command)`, pid \(owner.pid) on host "
        + "\(owner.host), since \(ISO8601Millis.format(owner.since)) (its lock file is \(lockPath)). Two programs "
        + "must not write one play log: stop that one first (`kill \(owner.pid)` on \(owner.host), or `systemctl "
        + "stop broadcast-monitor` if it runs as a service) or let it finish, or give this one its own play log "
        + "(--db, or databasePath in the configuration)."
    case .held(let playLog, let lockPath, nil):
      "play log \(playLog) is in use by another process, which holds its lock file \(lockPath) but has not written "
        + "its pid there (`fuser -v \(lockPath)` shows it). Two programs must not write one play log: stop that one "
        + "first or let it finish, or give this one its own play log (--db, or databasePath in the configuration)."
    case .unusable(let playLog, let lockPath, let reason):
      "cannot lock play log \(playLog) for writing: its lock file \(lockPath) cannot be created or locked "
        + "(\(reason)). Check that the folder exists and is writable by the user running broadcast-monitor, and "
        + "that \(lockPath) is a plain file."
    }
  }
}
