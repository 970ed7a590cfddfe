import Foundation
import Reports

/// `broadcast-monitor db copy --from plays.sqlite --to postgresql://USER@HOST:PORT/DB`: moves an existing play log
/// into PostgreSQL, table by table with every row's id (`PlayLogCopy`), then compares both sides' row counts and
/// checksums. Resumable: run again, it goes on after the last row copied.
enum DatabaseCommand {
  /// EX_DATAERR: the copy does not match its source.
  static let mismatchStatus: Int32 = 65

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let spec = CommandTable.db
    guard let sub = args.first else { throw UsageError(CommandHelp.help(spec)) }
    guard let copySpec = spec.subcommand(sub) else { throw UsageError(CommandHelp.unknownSubcommand(sub, of: spec)) }
    let a = try CommandLineArguments(args.dropFirst(), for: copySpec)
    guard a.positionals.isEmpty else { throw UsageError(CommandHelp.help(copySpec)) }
    let from = try a.required("from")
    let to = try a.required("to")
    guard !PlayLogLocation.isPostgreSQL(from) else {
      throw UsageError("--from \(from): name the SQLite play log file to copy")
    }
    guard PlayLogLocation.isPostgreSQL(to) else {
      throw UsageError("--to \(to): name the PostgreSQL play log, postgresql://USER@HOST:PORT/DB")
    }
    guard FileManager.default.fileExists(atPath: from) else {
      throw UsageError("--from \(from): no such play log; give the file that `run` or `scan --db` writes")
    }
    // A monitor writing the play log would change it under the copy: the copy takes the play log's lock, as a
    // second monitor would, and is refused (75) while one runs. A play log where no lock file can be made (a
    // read-only backup) has no monitor writing it.
    var lock: PlayLogLock?
    do {
      lock = try PlayLogLock(playLog: from, command: "db copy")
    } catch PlayLogLockError.unusable {
      lock = nil
    }
    defer { lock?.release() }
    let progress = ProgressReporter()
    let summary: PlayLogCopy.Summary
    do {
      summary = try PlayLogCopy.copy(sqlite: from, toPostgreSQL: to) { table, rows in
        progress.update("db copy: \(table): \(rows) rows")
      }
    } catch let error as PlayLogCopyTargetError {
      progress.finish()
      printError("broadcast-monitor: \(error)")
      return Self.mismatchStatus
    }
    progress.finish()
    for table in summary.sourceRows.keys.sorted() {
      let same =
        summary.sourceRows[table] == summary.targetRows[table]
        && summary.sourceChecksums[table] == summary.targetChecksums[table]
      printError(
        "db copy: \(table): \(summary.copiedRows[table] ?? 0) rows copied now; \(summary.sourceRows[table] ?? 0) in "
          + "\(from), \(summary.targetRows[table] ?? 0) in \(to); checksum "
          + (same ? "equal" : "DIFFERENT"))
    }
    guard summary.isVerified else {
      printError(
        "broadcast-monitor: db copy: \(to) does not hold the same rows as \(from) (see above): it held other rows "
          + "before the copy (copy into a new database), or it changed during the copy (a node writes it)")
      return Self.mismatchStatus
    }
    printError("db copy: verified: \(to) holds every row of \(from)")
    return 0
  }
}
