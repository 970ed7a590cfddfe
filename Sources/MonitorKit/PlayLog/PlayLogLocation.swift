import Common
import Foundation
import Reports

/// Where a play log is: an SQLite file (a path), or a PostgreSQL database (a `postgresql://USER@HOST:PORT/DB` URL)
/// that several monitors, the nodes, write at once. Opening one for writing is chosen here, once, for `run` and
/// `scan`: the SQLite file under its lock (`PlayLogLock`), or the PostgreSQL database under the node's lease with
/// the node's channels claimed (`PostgreSQLPlayLogStore`); and for reading the HTTP API's pages (`PlayLogPages`).
///
/// Threads: any thread (it holds nothing).
enum PlayLogLocation {
  /// True when `path` names a PostgreSQL database rather than a file.
  static func isPostgreSQL(_ path: String) -> Bool {
    path.hasPrefix("postgresql://") || path.hasPrefix("postgres://")
  }

  /// This machine's host name: the default node name.
  static var hostName: String {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Opens the play log at `path` for `command` ("run" or "scan"), which writes `channels`.
  ///
  /// `run` on PostgreSQL starts whether or not the server can be reached (a node must monitor through an outage,
  /// and a reboot of both machines must not leave it waiting): the store connects on its first write, and the
  /// writer keeps the plays in the spool until then. `scan` needs the server at start.
  /// - Returns: the store, and the SQLite file's lock (nil for PostgreSQL, where the node's lease lives in the
  ///   store's session); keep the lock until the store is closed.
  /// With `standby` (`run` on PostgreSQL), a channel another live node holds is refused and waits
  /// (`PostgreSQLPlayLogStore.refusedChannels`) instead of stopping the start.
  /// - Throws: `PlayLogLockError` when another process writes the SQLite file; `PlayLogNodeError` when another
  ///   monitor runs as `node` or another live node holds one of `channels`; a `ConfigurationError` (key
  ///   `database.url`) when the PostgreSQL server is up and refuses the login (user, password, database: exit 78);
  ///   `PostgreSQLError` or `SQLiteError` when the play log cannot be opened (for `run`, an SQLite file on a full or
  ///   failing disk opens later instead: `PlayLogStore(openingLater:)`).
  static func openForWriting(
    _ path: String, node: String, passwordFile: String?, channels: [String], command: String, standby: Bool = false
  ) throws -> (store: any PlayLogStorage, lock: PlayLogLock?) {
    if isPostgreSQL(path) {
      do {
        if command == "run" {
          let store = try PostgreSQLPlayLogStore(
            startingWithoutServer: path, node: node, passwordFile: passwordFile, channels: channels,
            waitingForHeldChannels: standby)
          return (store, nil)
        }
        let store = try PostgreSQLPlayLogStore(url: path, node: node, passwordFile: passwordFile)
        try store.claim(channels: channels)
        return (store, nil)
      } catch let error as PostgreSQLError where error.isLoginRefused {
        throw ConfigurationError(keyPath: "database.url", reason: "\(error)")
      }
    }
    // The lock comes before the play log is opened: a recovery must only ever close plays that no running monitor
    // owns.
    let lock = try PlayLogLock(playLog: path, command: command)
    do {
      return (try PlayLogStore(path: path), lock)
    } catch let error as SQLiteError where command == "run" && error.isDiskProblem {
      // A disk so full that SQLite cannot even open the file: the monitor listens all the same, and its writer
      // opens the play log with its start-up writes, as soon as there is room (it logs `cannot be written at start`).
      return (PlayLogStore(openingLater: path), lock)
    }
  }

  /// Opens the play log at `path`, which must exist, for a command that adds to it beside the monitor (`catalog add
  /// --from-unknown`, `schedule import`): the SQLite file (a missing one would be created empty, a new play log that
  /// no monitor or report reads), or the PostgreSQL database under a node name of the command's own, so that the
  /// monitor running on this host keeps its lease.
  /// - Throws: `UsageError` for a file that does not exist; `PostgreSQLError` or `SQLiteError` when the play log
  ///   cannot be opened.
  static func openExisting(_ path: String, command: String, passwordFile: String?) throws
    -> any PlayLogStorage & ScheduleStorage
  {
    if isPostgreSQL(path) {
      return try PostgreSQLPlayLogStore(url: path, node: "\(hostName)-\(command)", passwordFile: passwordFile)
    }
    guard FileManager.default.fileExists(atPath: path) else {
      throw UsageError("--db \(path): no such play log; give the file that `run` or `scan --db` writes")
    }
    return try PlayLogStore(path: path)
  }

  /// Opens the play log at `path` for the HTTP API's pages: the SQLite file read-only, or a read-only connection
  /// to the PostgreSQL database (no node's lease).
  /// - Throws: `SQLiteError` or `MigrationError` for a file that is missing or not a play log this version reads;
  ///   `PostgreSQLError` when the server cannot be reached.
  static func openPages(_ path: String, passwordFile: String?) throws -> any PlayLogPages {
    if isPostgreSQL(path) { return try PostgreSQLPlayLogReader(url: path, passwordFile: passwordFile) }
    return try PlayLogReader(path: path)
  }

  /// The spool of the play log at `path`: beside an SQLite file (or in `directory`); for PostgreSQL, the node's own
  /// file `NODE.postgresql.spool` in `directory`, by default the current folder (the systemd unit's
  /// `WorkingDirectory`, the node's state folder).
  static func spool(for path: String, node: String, directory: String?) -> PlaySpool {
    guard isPostgreSQL(path) else { return PlaySpool(playLogPath: path, directory: directory) }
    let folder = directory ?? FileManager.default.currentDirectoryPath
    return PlaySpool(playLogPath: path, file: (folder as NSString).appendingPathComponent("\(node).postgresql.spool"))
  }
}
