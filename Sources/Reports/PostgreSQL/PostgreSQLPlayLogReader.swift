import Foundation

/// Reads a PostgreSQL play log for the HTTP API, while the nodes go on writing it: pages of its plays, events and
/// alerts, by the statements of ``PlayLogPage`` that the SQLite ``PlayLogReader`` runs too. It has its own
/// connection, read-only (`default_transaction_read_only`), which takes no node's lease and applies no migration:
/// the monitor's store has brought the schema up to date. Each page is one statement, which sees the log as it is
/// when it runs.
///
/// Thread: one thread at a time; it is not Sendable. Open one reader per request.
package final class PostgreSQLPlayLogReader: PlayLogPages {
  /// The URL, as given (without a password).
  package let path: String
  private let connection: PostgreSQLConnection

  /// Connects to the play log at `url`.
  /// - Parameter passwordFile: a file holding the password (`database.passwordFile`); without it libpq reads
  ///   `PGPASSWORD` or `~/.pgpass`.
  /// - Throws: ``PostgreSQLError`` when the server cannot be reached or refuses the login.
  package init(url: String, passwordFile: String? = nil) throws {
    path = url
    connection = try PostgreSQLConnection(url: url, passwordFile: passwordFile)
    try connection.execute("SET default_transaction_read_only = on")
  }

  package func close() throws { connection.close() }

  package func playsPage(_ filter: PlayLogPage.Filter) throws -> (rows: [PlayLogPage.Play], next: PlayLogPage.Cursor?) {
    let rows = try pageRows(.plays, filter).map(PlayLogPage.play)
    return PlayLogPage.page(rows, limit: filter.limit) {
      PlayLogPage.Cursor(startMilliseconds: $0.start.millisecondsSince1970, id: $0.id)
    }
  }

  package func eventsPage(
    _ filter: PlayLogPage.Filter
  ) throws -> (rows: [PlayLogPage.Event], next: PlayLogPage.Cursor?) {
    let rows = try pageRows(.events, filter).map(PlayLogPage.event)
    return PlayLogPage.page(rows, limit: filter.limit) {
      PlayLogPage.Cursor(startMilliseconds: $0.start.millisecondsSince1970, id: $0.id)
    }
  }

  package func alertsPage(
    _ filter: PlayLogPage.Filter
  ) throws -> (rows: [PlayLogPage.Alert], next: PlayLogPage.Cursor?) {
    let rows = try pageRows(.alerts, filter).map(PlayLogPage.alert)
    return PlayLogPage.page(rows, limit: filter.limit) {
      PlayLogPage.Cursor(startMilliseconds: $0.alert.start.millisecondsSince1970, id: $0.id)
    }
  }

  private func pageRows(_ table: PlayLogPage.Table, _ filter: PlayLogPage.Filter) throws -> [PostgreSQLRow] {
    let (sql, arguments) = PlayLogPage.statement(table, filter) { "$\($0)" }
    return try connection.query(
      sql,
      arguments.map {
        switch $0 {
        case .integer(let value): .integer(value)
        case .text(let value): .text(value)
        }
      })
  }
}

@available(*, unavailable, message: "a PostgreSQLPlayLogReader is used by one thread at a time: open one per thread")
extension PostgreSQLPlayLogReader: Sendable {}
