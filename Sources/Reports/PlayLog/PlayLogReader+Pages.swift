import Foundation

/// Pages of plays, events and alerts from an SQLite play log, for the HTTP API: the statements of ``PlayLogPage``,
/// each one short read transaction.
extension PlayLogReader: PlayLogPages {
  /// A play log not yet at `007_late_plays` (opened read-only since an older version wrote it) gives no
  /// `identifiedAt`.
  package func playsPage(_ filter: PlayLogPage.Filter) throws -> (rows: [PlayLogPage.Play], next: PlayLogPage.Cursor?) {
    let rows = try pageRows(try hasLatePlays() ? .plays : .playsWithoutIdentifiedAt, filter, PlayLogPage.play)
    return PlayLogPage.page(rows, limit: filter.limit) {
      PlayLogPage.Cursor(startMilliseconds: $0.start.millisecondsSince1970, id: $0.id)
    }
  }

  package func eventsPage(
    _ filter: PlayLogPage.Filter
  ) throws -> (rows: [PlayLogPage.Event], next: PlayLogPage.Cursor?) {
    let rows = try pageRows(.events, filter, PlayLogPage.event)
    return PlayLogPage.page(rows, limit: filter.limit) {
      PlayLogPage.Cursor(startMilliseconds: $0.start.millisecondsSince1970, id: $0.id)
    }
  }

  /// None when the file has no alerts table (written by a version before alerts).
  package func alertsPage(
    _ filter: PlayLogPage.Filter
  ) throws -> (rows: [PlayLogPage.Alert], next: PlayLogPage.Cursor?) {
    guard try hasAlerts() else { return ([], nil) }
    let rows = try pageRows(.alerts, filter, PlayLogPage.alert)
    return PlayLogPage.page(rows, limit: filter.limit) {
      PlayLogPage.Cursor(startMilliseconds: $0.alert.start.millisecondsSince1970, id: $0.id)
    }
  }

  /// The rows of a page's statement, read by `read`.
  private func pageRows<Row>(
    _ table: PlayLogPage.Table, _ filter: PlayLogPage.Filter, _ read: (SQLiteRow) throws -> Row
  ) throws -> [Row] {
    let (sql, arguments) = PlayLogPage.statement(table, filter) { _ in "?" }
    var rows: [Row] = []
    try database.forEachRow(
      sql,
      arguments.map {
        switch $0 {
        case .integer(let value): .integer(value)
        case .text(let value): .text(value)
        }
      }
    ) { rows.append(try read($0)) }
    return rows
  }
}
