import Foundation

/// A PostgreSQL play log read for the reports: one consistent snapshot of it (a `REPEATABLE READ` transaction),
/// copied with every row's id into a temporary SQLite play log, which the one report implementation
/// (`PlayLogReader`) then reads exactly as it reads the monitor's own file; a report with `--from` or `--to` copies
/// only the plays around its span. The reports are therefore the same bytes
/// from either engine for the same plays. The file (in `TMPDIR`) is removed when the snapshot is released.
///
/// Thread: one thread at a time.
package final class PostgreSQLPlayLogSnapshot {
  /// The temporary SQLite play log.
  package let path: String
  private let folder: String

  /// How far beyond a report's bounds the snapshot reaches, in milliseconds: a local day's bound lies within a day
  /// of its UTC day in any time zone, and `reconcile` matches a spot to airings within an hour of it.
  static let spanMarginMilliseconds: Int64 = 2 * 86_400_000

  /// Copies the play log at `url`: with `scope`, only the plays, events and spots a report of that scope can read
  /// (its `--from` and `--to`, widened by ``spanMarginMilliseconds``; an open end copies everything on that side;
  /// its `--channel`'s only: a report of one channel reads no other); with `tables`, only those tables (the ones
  /// the report reads, ``ReportTables``), the others left empty.
  /// - Throws: ``PostgreSQLError`` when the server cannot be read; ``MigrationError`` for a newer version's log;
  ///   ``SQLiteError`` when the temporary file cannot be written (a full `TMPDIR`).
  package init(
    url: String, passwordFile: String? = nil, scope: ReportScope? = nil, tables: Set<String>? = nil
  ) throws {
    folder = (FileManager.default.temporaryDirectory.path as NSString)
      .appendingPathComponent("broadcast-monitor-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    path = (folder as NSString).appendingPathComponent("plays.sqlite")
    do {
      let from = scope?.from.map { $0.approximateMilliseconds - Self.spanMarginMilliseconds } ?? Int64.min
      let to = scope?.to.map { $0.approximateMilliseconds + Self.spanMarginMilliseconds } ?? Int64.max
      try PlayLogCopy.copy(
        postgreSQL: url, passwordFile: passwordFile, toSQLite: path,
        span: (scope?.from == nil && scope?.to == nil) || from >= to ? nil : from..<to, channel: scope?.channelName,
        tables: tables)
    } catch {
      try? FileManager.default.removeItem(atPath: folder)
      throw error
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }
}
