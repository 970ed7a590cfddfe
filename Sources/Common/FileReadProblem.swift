import Foundation

/// Why a file that is to be read cannot be, for an error message ("is a folder", "does not exist"): each caller adds
/// the fix that fits its file. A folder, a device or a pipe named where a file belongs is told apart from a
/// permission, which only a permission fixes.
///
/// A value type: safe to pass between threads.
package enum FileReadProblem: Error, Equatable, CustomStringConvertible, Sendable {
  case missing
  case folder
  /// A device (`/dev/null`), a pipe or a socket.
  case notARegularFile
  /// A permission, or an error reading the disk: the system's `errno`.
  case unreadable(errno: Int32)

  /// Nil when `path` is a regular file this process may read; otherwise what is wrong with it.
  package static func of(_ path: String) -> FileReadProblem? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(errno: errno)
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return .folder
    case S_IFREG: break
    default: return .notARegularFile
    }
    guard access(path, R_OK) == 0 else { return .unreadable(errno: errno) }
    return nil
  }

  /// True for a folder, a device, a pipe or a socket where a file belongs: something to name again, not to read.
  package var isNotAFile: Bool { self == .folder || self == .notARegularFile }

  /// True for a permission refused (`EACCES`, `EPERM`): the fix is to let the user read the file.
  package var isPermission: Bool {
    guard case .unreadable(let code) = self else { return false }
    return code == EACCES || code == EPERM
  }

  package var description: String {
    switch self {
    case .missing: "does not exist"
    case .folder: "is a folder"
    case .notARegularFile: "is not a regular file (a device, a pipe or a socket)"
    case .unreadable(let code): "cannot be read (\(String(cString: strerror(code))))"
    }
  }
}
