/// One step of a database schema: an id that is recorded in `schema_migrations` once applied, and the SQL to apply.
///
/// Ids sort in the order they were written ("001_initial", "002_…"). A released migration is never edited: a
/// change to the schema is a new migration.
///
/// A value type: safe to pass between threads.
struct Migration: Sendable, Equatable {
  let id: String
  /// One or more SQL statements.
  let sql: String
  /// The statements for PostgreSQL, when they are not `sql` put in its words (``postgreSQLText``): a change SQLite
  /// makes by rebuilding a table, for example.
  var postgreSQL: String? = nil
}
