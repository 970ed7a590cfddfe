import Common
import Foundation

/// An output file a command was given (`scan --csv`, `--db`, `signature --out`), checked before any work: a scan of
/// hours must not end in "cannot write", and an output that names the command's own input (the recording, the
/// catalog) would destroy it.
///
/// Threads: any.
enum OutputCheck {
  /// Refuses `path` (given with `option`) when it is one of `inputs` (each with its role, such as "the recording"),
  /// or when its folder does not exist.
  static func check(_ path: String, option: String, inputs: [(role: String, path: String)]) throws(UsageError) {
    for input in inputs where OutputFile.isSameFile(path, input.path) {
      throw UsageError(
        "\(option) \(path) is \(input.role) this command reads: writing there would destroy it; name another file")
    }
    let folder = (OutputFile.replaceablePath(path) as NSString).deletingLastPathComponent
    var info = stat()
    guard folder.isEmpty || (stat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) else {
      throw UsageError("\(option) \(path): the folder \(folder) does not exist; create it or name another place")
    }
  }
}
