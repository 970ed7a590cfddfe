import Foundation
import Reports

/// One edit of a catalog at a time. `catalog add`, `remove` and `upgrade` each read the catalog and write it whole
/// under its name: two at once would each write what it read plus its own change, and the second to finish would
/// drop the first one's, both reporting success. Each takes an `flock` on `CATALOG.lock` beside the catalog (the same
/// lock file as a play log's, ``PlayLogLock``, with its owner's pid, host and command) before it reads; a second edit
/// is refused at once, naming the first (exit 75: it works once that one has finished). The monitor only reads the
/// catalog and takes no lock.
///
/// Threads: one thread at a time. The lock is held until the lock value is released or dropped.
enum CatalogEditLock {
  /// Takes the edit lock of the catalog at `url` for `command`.
  /// - Throws: ``Held`` when another edit holds it; ``Unwritable`` when the lock file cannot be made beside the
  ///   catalog (its folder is missing or not writable), which also means the catalog could not be written there.
  static func take(_ url: URL, command: String) throws -> PlayLogLock {
    do {
      return try PlayLogLock(playLog: url.path, command: command)
    } catch PlayLogLockError.held(_, let lockPath, let owner) {
      throw Held(catalog: url.path, lockPath: lockPath, owner: owner)
    } catch PlayLogLockError.unusable(_, let lockPath, let reason) {
      let parent = url.deletingLastPathComponent().path
      var isFolder: ObjCBool = false
      let problem =
        !FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder)
        ? "its folder \(parent) does not exist"
        : !isFolder.boolValue
          ? "\(parent) is not a folder"
          : "its lock file \(lockPath) cannot be created or locked there (\(reason))"
      throw Unwritable(catalog: url.path, problem: problem)
    }
  }

  /// Another edit of the catalog is under way.
  struct Held: Error, CustomStringConvertible {
    let catalog: String
    let lockPath: String
    let owner: PlayLogLock.Owner?

    var description: String {
      let who =
        owner.map {
          "`\($0.command)`, pid \($0.pid) on host \($0.host), since \(ISO8601Millis.format($0.since))"
        } ?? "another process (`fuser -v \(lockPath)` shows it)"
      return "catalog \(catalog) is being changed by \(who): wait for it to finish, then run this again (each edit "
        + "reads the catalog and writes it whole; two at once would lose one of them)"
    }
  }

  /// The catalog's folder cannot take the lock file, so it could not take the catalog either. Checked before any
  /// audio is decoded, so that no work is wasted.
  struct Unwritable: Error, CustomStringConvertible {
    let catalog: String
    /// What keeps the catalog from being written there: its folder missing, not a folder, or the system's reason.
    let problem: String

    var description: String {
      "cannot write the catalog \(catalog): \(problem); create the folder or let this user write there, or give "
        + "another --catalog"
    }
  }
}
