import Foundation

/// The questions the configuration loader asks the file system: does a path exist and as what, may this process
/// read it, may it write there. `live` asks the real one; tests answer for a file that names paths of another
/// machine (`config/monitor.example.json5` names `/var/lib/broadcast-monitor`).
///
/// Threads: a value; any thread.
struct FileChecks: Sendable {
  /// What is at a path.
  enum Entry: Equatable, Sendable {
    case missing
    case file
    case directory
  }

  var entry: @Sendable (String) -> Entry
  var isReadable: @Sendable (String) -> Bool
  var isWritable: @Sendable (String) -> Bool
  /// Whether the path lies on a file system mounted read-only (a permission cannot fix that: under systemd's
  /// `ProtectSystem=strict`, everything outside `ReadWritePaths=` is).
  var isOnReadOnlyFileSystem: @Sendable (String) -> Bool = { _ in false }

  /// The real file system, as the user running broadcast-monitor sees it.
  static let live = FileChecks(
    entry: { path in
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
      return isDirectory.boolValue ? .directory : .file
    },
    isReadable: { FileManager.default.isReadableFile(atPath: $0) },
    isWritable: { FileManager.default.isWritableFile(atPath: $0) },
    isOnReadOnlyFileSystem: { path in
      var info = statvfs()
      return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    })
}
