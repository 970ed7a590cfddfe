import Foundation

/// A PostgreSQL play log read for the reports: one consistent snapshot of it (a `REPEATABLE READ` transaction),
/// copied with every row's id into a temporary SQLite play log, which the one report implementation
/// (`PlayLogReader`) then reads exactly as it reads the monitor's own file. The reports are therefore the same bytes
/// from either engine for the same plays. The file (in `TMPDIR`) is removed when the snapshot is released.
///
/// Thread: one thread at a time.
package final class PostgreSQLPlayLogSnapshot {
  /// The temporary SQLite play log.
  package let path: String
  private let folder: String

  /// Copies the play log at `url`.
  /// - Throws: ``PostgreSQLError`` when the server cannot be read; ``MigrationError`` for a newer version's log;
  ///   ``SQLiteError`` when the temporary file cannot be written (a full `TMPDIR`).
  package init(url: String, passwordFile: String? = nil) throws {
    folder = (FileManager.default.temporaryDirectory.path as NSString)
      .appendingPathComponent("broadcast-monitor-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    path = (folder as NSString).appendingPathComponent("plays.sqlite")
    do {
      try PlayLogCopy.copy(postgreSQL: url, passwordFile: passwordFile, toSQLite: path)
    } catch {
      try? FileManager.default.removeItem(atPath: folder)
      throw error
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }
}
