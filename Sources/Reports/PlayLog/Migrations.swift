import Foundation

/// An ordered list of ``Migration``s and the runner that brings a database up to date with them.
///
/// The ids applied are kept in `schema_migrations(id TEXT PRIMARY KEY, applied_at_ms INTEGER NOT NULL)`. Each
/// pending migration runs inside one transaction together with the insert of its id, so a crash or an error
/// leaves it either fully applied and recorded or not at all. A database that records an id this build does not
/// know was written by a newer version: it is refused with a ``MigrationError`` and left untouched.
///
/// A value type: safe to pass between threads; ``apply(to:now:)`` runs on the database's thread.
struct Migrations: Sendable {
  /// The migrations, in the order they are applied.
  let list: [Migration]

  init(_ list: [Migration]) {
    precondition(Set(list.map(\.id)).count == list.count, "migration ids must be unique")
    self.list = list
  }

  /// Creates `schema_migrations` if needed, refuses a database from a newer version, then applies each pending
  /// migration in order. Returns the ids it applied (empty when the database was up to date). A database that is up
  /// to date is only read: it opens while another program holds its write lock or its disk is full, and the first
  /// write reports that. A database without `schema_migrations` that holds tables is another program's: it is
  /// refused (``ForeignDatabaseError``) before anything is written to it.
  @discardableResult
  func apply(to database: SQLiteDatabase, now: Date = Date()) throws -> [String] {
    if try !database.hasTable("schema_migrations") {
      let tables = try database.query(SQLiteDatabase.tableNamesSQL).map { try $0.string(0) }
      if let foreign = ForeignDatabaseError(path: database.path, databaseName: database.name, tables: tables) {
        throw foreign
      }
      try database.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations(id TEXT PRIMARY KEY, applied_at_ms INTEGER NOT NULL)")
    }
    let known = Set(list.map(\.id))
    let alreadyApplied = try appliedIDs(in: database)
    let unknown = alreadyApplied.filter { !known.contains($0) }
    guard unknown.isEmpty else {
      throw MigrationError(
        path: database.path, databaseName: database.name, unknownIDs: unknown, knownIDs: list.map(\.id))
    }
    var applied: [String] = []
    for migration in list where !alreadyApplied.contains(migration.id) {
      // Checked again inside the transaction: another process may have applied it since we looked.
      let didApply = try database.transaction { () throws -> Bool in
        let done = try database.firstRow("SELECT 1 FROM schema_migrations WHERE id = ?", [.text(migration.id)])
        guard done == nil else { return false }
        try database.execute(migration.sql)
        try database.run(
          "INSERT INTO schema_migrations(id, applied_at_ms) VALUES(?, ?)", [.text(migration.id), .date(now)])
        return true
      }
      if didApply { applied.append(migration.id) }
    }
    return applied
  }

  /// The ids recorded in `schema_migrations`, sorted.
  func appliedIDs(in database: SQLiteDatabase) throws -> [String] {
    try database.query("SELECT id FROM schema_migrations ORDER BY id").map { try $0.string(0) }
  }
}
