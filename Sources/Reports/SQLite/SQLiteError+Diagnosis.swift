import CSQLite
import Foundation

/// What the file system says about a failed write: SQLite reports "disk I/O error" or "attempt to write a readonly
/// database" without saying which file or why; this looks.
extension SQLiteError {
  /// The cause of a write failure found on disk, as a sentence naming the file: a read-only (or immutable) file,
  /// a read-only file system, or a full disk. Nil when nothing is wrong there or the error is not about writing
  /// (a lock, a bug).
  public var fileDiagnosis: String? {
    let primary = code & 0xFF
    guard path != ":memory:",
      [SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM].contains(primary)
    else { return nil }
    let folder = (path as NSString).deletingLastPathComponent
    for file in [path, path + "-wal", path + "-shm", folder.isEmpty ? "." : folder]
    where FileManager.default.fileExists(atPath: file) && access(file, W_OK) != 0 {
      let reason = String(cString: strerror(errno))
      let what = file == folder ? "the folder \(file)" : file
      return errno == EROFS
        ? "\(what) is on a read-only file system (\(reason))" : "\(what) is read-only (\(reason))"
    }
    var info = statvfs()
    if statvfs(folder.isEmpty ? "." : folder, &info) == 0 {
      let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
      if primary == SQLITE_FULL || free < 1 << 20 {
        return "the disk holding \(path) is full (\(free / 1024) KiB free)"
      }
    }
    return nil
  }
}
