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
    let progress = ProgressReporter()
    let summary = try PlayLogCopy.copy(sqlite: from, toPostgreSQL: to) { table, rows in
      progress.update("db copy: \(table): \(rows) rows")
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
          + "before the copy (copy into a new database), or one side changed during it (stop the monitor first)")
      return Self.mismatchStatus
    }
    printError("db copy: verified: \(to) holds every row of \(from)")
    return 0
  }
}
