import Foundation
import Reports

/// Why the play log takes no writes now, as its writer (`PlayLogWriter`) last saw it: the cause, since when, and the
/// last error. `/healthz`, `/metrics` and the console read it from `MonitorOverview` rather than from the log.
///
/// A value type: safe to pass between threads.
struct PlayLogOutage: Sendable, Equatable {
  enum Cause: String, Sendable {
    /// The PostgreSQL server cannot be reached (down, restarting, the network between): the connection is lost.
    case unreachable
    /// The play log is reached but refuses the write (a full disk, permissions, a lock another program holds).
    case unwritable
  }

  var cause: Cause
  /// When the first write of this outage failed.
  var since: Date
  /// The last write's error, for a person.
  var reason: String

  /// The outage `error` starts or continues: `since` is kept from `previous`, the cause and reason are the last
  /// error's.
  static func after(_ error: any Error, reason: String, previous: PlayLogOutage?, now: Date = Date()) -> PlayLogOutage {
    let cause: Cause = (error as? PostgreSQLError)?.isConnectionLost == true ? .unreachable : .unwritable
    return PlayLogOutage(cause: cause, since: previous?.since ?? now, reason: reason)
  }
}
