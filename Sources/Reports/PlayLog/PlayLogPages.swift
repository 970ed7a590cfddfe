/// What the HTTP API reads of a play log, whatever holds it: pages of its plays, events and alerts, newest start
/// first (``PlayLogPage``). ``PlayLogReader`` reads an SQLite file, ``PostgreSQLPlayLogReader`` a PostgreSQL
/// database; both run the one statement ``PlayLogPage`` writes for each page, so the same rows give the same pages
/// from either (`APIRouterPostgreSQLTests` checks it).
///
/// Requirements for an implementation:
/// - a page is one read statement, which sees the log as it is when it runs (the writer is never held up by it);
/// - it never writes.
///
/// Thread: one thread at a time; open one per request.
package protocol PlayLogPages: AnyObject {
  /// Up to `filter.limit` plays, newest start first, and the cursor of the next page (nil on the last one).
  func playsPage(_ filter: PlayLogPage.Filter) throws -> (rows: [PlayLogPage.Play], next: PlayLogPage.Cursor?)
  /// Up to `filter.limit` events, newest start first, and the cursor of the next page (nil on the last one).
  func eventsPage(_ filter: PlayLogPage.Filter) throws -> (rows: [PlayLogPage.Event], next: PlayLogPage.Cursor?)
  /// Up to `filter.limit` alerts that overlap `[filter.from, filter.to)`, newest start first, and the cursor of the
  /// next page (nil on the last one); none from a play log without the alerts table.
  func alertsPage(_ filter: PlayLogPage.Filter) throws -> (rows: [PlayLogPage.Alert], next: PlayLogPage.Cursor?)
  /// Closes the connection.
  func close() throws
}
