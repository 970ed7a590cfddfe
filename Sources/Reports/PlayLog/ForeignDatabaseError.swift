/// An SQLite file named as a play log holds another program's tables and none of broadcast-monitor's
/// (`schema_migrations`): it is another program's database, and is left untouched rather than given the play log's
/// tables beside its own.
///
/// A value type: safe to pass between threads.
public struct ForeignDatabaseError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The database file.
  public let path: String
  /// What the database was to be, such as "play log".
  public let databaseName: String
  /// Its tables, sorted.
  public let tables: [String]

  /// The error for a database at `path` with `tables` (besides SQLite's own), or nil when it is not another
  /// program's: no table yet (a new file), or broadcast-monitor's `schema_migrations` among them.
  init?(path: String, databaseName: String, tables: [String]) {
    guard !tables.isEmpty, !tables.contains("schema_migrations") else { return nil }
    self.path = path
    self.databaseName = databaseName
    self.tables = tables.sorted()
  }

  public var description: String {
    let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
    return "\(path) is an SQLite database of another program (its tables: \(shown)), not a \(databaseName): it was "
      + "left as it is. Name a new file for the \(databaseName), or the \(databaseName) broadcast-monitor made"
  }
}
