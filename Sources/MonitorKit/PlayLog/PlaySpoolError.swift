import Foundation

/// The play log's spool could not be written, read or emptied. Each case names the spool file and the cause.
///
/// A value type: safe to pass between threads.
enum PlaySpoolError: Error, CustomStringConvertible, Equatable {
  /// Appending to the spool (or syncing it to disk) failed: the commands are not in it.
  case cannotWrite(path: String, reason: String)
  /// The spool exists but cannot be read.
  case cannotRead(path: String, reason: String)
  /// The spool was replayed but cannot be removed, so the next start would replay it again.
  case cannotRemove(path: String, reason: String)

  var description: String {
    switch self {
    case .cannotWrite(let path, let reason):
      "cannot write the play spool \(path): \(reason)"
    case .cannotRead(let path, let reason):
      "cannot read the play spool \(path): \(reason); let the user running broadcast-monitor read it"
    case .cannotRemove(let path, let reason):
      "the play spool \(path) was written to the play log but cannot be removed: \(reason); let the user running "
        + "broadcast-monitor write its folder"
    }
  }

  /// `strerror(errno)` for the last failed call.
  static var lastReason: String { String(cString: strerror(errno)) }
}
