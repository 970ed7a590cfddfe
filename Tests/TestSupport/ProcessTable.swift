import Foundation

/// What Linux's /proc says about a process, to check that a component left no child process behind.
/// Threads: any thread.
public enum ProcessTable {
  /// The state letter (`R`, `S`, `Z` for a zombie …) and parent process ID of `pid`, nil when there is no such
  /// process.
  public static func status(of pid: pid_t) -> (state: Character, parent: pid_t)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // "pid (comm) S ppid …": the command may contain spaces and parentheses, so parse after the last ')'.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count >= 2, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
    return (state, parent)
  }

  /// True when `pid` is a child of this process, running or a zombie not yet reaped.
  public static func isChildOfThisProcess(_ pid: pid_t) -> Bool {
    status(of: pid)?.parent == getpid()
  }
}
