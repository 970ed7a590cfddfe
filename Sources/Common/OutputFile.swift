import Foundation

/// A file a command writes under a name the user gave, and what is already there under that name.
///
/// A regular file, or nothing yet, may be replaced whole: written under a temporary name beside it and renamed over
/// it once complete. Anything else (a device such as /dev/null, a FIFO, a terminal, /dev/stdout) must be opened and
/// written in place: renaming over it, or creating the file through Foundation (`createFile` writes a temporary
/// file and renames it), put an empty regular file where the system keeps its /dev/null, for every program on the
/// machine, when `scan --csv /dev/null` ran as root.
///
/// Threads: any.
package enum OutputFile {
  /// Whether `path` names something that exists and is not a regular file (symbolic links followed).
  package static func isSpecial(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
  }

  /// The file that replacing `path` must replace: `path` with its symbolic links resolved when it exists (so that
  /// a link stays a link), else `path` itself.
  package static func replaceablePath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `a` and `b` name the same existing file (the same device and inode, links followed).
  package static func isSameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev
      && first.st_ino == second.st_ino
  }

  /// Opens `path` for writing in place: created (mode 0644, before the umask) or truncated if it is a regular
  /// file, opened as it is otherwise. Never replaces what is there.
  package static func openInPlace(_ path: String) throws(OpenError) -> FileHandle {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
    return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
  }

  /// Gives the new file open on `descriptor`, which will replace the file at `path`, that file's permissions, group
  /// and (when run as root) owner, so that replacing a file keeps who may read it: a catalog or a report made
  /// readable by the service's group stays readable by the service after `catalog add` rewrites it as root or as
  /// another user. Does nothing when nothing is at `path`. What cannot be kept (a group this user is not in, an owner
  /// when not root) stays as the new file was created: the old file's mode then still applies to it.
  package static func keepAccess(of path: String, on descriptor: Int32) {
    var old = stat()
    guard stat(path, &old) == 0, old.st_mode & S_IFMT == S_IFREG else { return }
    if fchown(descriptor, old.st_uid, old.st_gid) != 0 {
      _ = fchown(descriptor, uid_t.max, old.st_gid)  // uid_t.max is -1: keep the owner, set the group
    }
    _ = fchmod(descriptor, old.st_mode & 0o7777)
  }

  /// A file that could not be opened for writing, with the system's reason and what to check.
  package struct OpenError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String {
      "cannot write \(path) (\(reason)): check that the folder exists and is writable"
    }
  }
}
