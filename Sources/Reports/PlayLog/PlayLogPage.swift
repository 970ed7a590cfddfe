import Foundation

/// Pages of the play log's plays, events and alerts, newest start first, for the HTTP API: each page one short read
/// statement, the next one named by a cursor (the start and id of the last row of the page), so that paging is stable
/// while rows are added. The statement of a page (its conditions, order and limit) and the reading of its rows are
/// here, once, for both engines; ``PlayLogPages`` runs them on an SQLite file (`PlayLogReader`) or a PostgreSQL
/// database (`PostgreSQLPlayLogReader`).
///
/// Thread: any (values and pure functions).
package enum PlayLogPage {
  /// Where a page starts: after the row with this start and id, in the order newest start first, then highest id.
  package struct Cursor: Sendable, Equatable {
    package var startMilliseconds: Int64
    package var id: Int64

    package init(startMilliseconds: Int64, id: Int64) {
      self.startMilliseconds = startMilliseconds
      self.id = id
    }
  }

  /// What a page is limited to: a channel, rows overlapping [from, to) (``statement(_:_:placeholder:)`` says how),
  /// and the rows after `cursor`.
  package struct Filter: Sendable, Equatable {
    package var channel: String?
    package var from: Date?
    package var to: Date?
    package var cursor: Cursor?
    /// Rows at most, at least 1.
    package var limit: Int

    package init(channel: String? = nil, from: Date? = nil, to: Date? = nil, cursor: Cursor? = nil, limit: Int) {
      self.channel = channel
      self.from = from
      self.to = to
      self.cursor = cursor
      self.limit = limit
    }
  }

  /// One play as the API lists it.
  package struct Play: Sendable, Equatable {
    package var id: Int64
    package var channel: String
    package var title: String
    package var artist: String
    package var kind: String
    package var isrc: String
    package var start: Date
    package var end: Date
    package var status: String
    package var refOffsetSeconds: Double
    package var speed: Double
    package var confidence: Double
    /// When a `late` play was identified (its cluster of unknown music added to the catalog); nil for the others.
    package var identifiedAt: Date?
  }

  /// One row of the events table as the API lists it.
  package struct Event: Sendable, Equatable {
    package var id: Int64
    package var channel: String?
    package var kind: String
    package var start: Date
    package var end: Date?
    package var detail: String
  }

  /// One alert as the API lists it: the row's id and the alert.
  package struct Alert: Sendable, Equatable {
    package var id: Int64
    package var alert: AlertRecord
  }

  /// The table a page lists.
  enum Table {
    case plays
    /// `identifiedAt`: false for an SQLite file not yet at `007_late_plays` (opened read-only since an older
    /// version wrote it), whose plays then have none.
    case playsWithoutIdentifiedAt
    case events
    case alerts
  }

  /// A value of a page statement's parameter.
  enum Argument: Equatable {
    case integer(Int64)
    case text(String)
  }

  /// The statement of a page of `table` under `filter`, and its arguments; `placeholder(n)` writes the n-th
  /// parameter (from 1) as the engine takes it (`?` for SQLite, `$n` for PostgreSQL). It reads `limit + 1` rows: the
  /// one past the page says that there is a next page (``page(_:limit:cursor:)``).
  ///
  /// Rows are listed when they overlap [from, to): a play that began before `from` and was on air at `from` (or is
  /// on air now, `open`) is listed, so that a timeline from `from` shows the song on air at its left edge; an event
  /// with an end, likewise; one without (a point in time, or a gap not over yet) when it starts in [from, to). An
  /// open alert reaches to now. `channel` lists that channel's rows; for alerts, the monitor's own (no channel) too,
  /// since they concern it as well.
  static func statement(_ table: Table, _ filter: Filter, placeholder: (Int) -> String) -> (
    sql: String, arguments: [Argument]
  ) {
    var conditions: [String] = []
    var arguments: [Argument] = []
    func parameter(_ argument: Argument) -> String {
      arguments.append(argument)
      return placeholder(arguments.count)
    }
    let alias: String
    let select: String
    switch table {
    case .plays, .playsWithoutIdentifiedAt:
      alias = "p"
      select = """
        SELECT p.id, c.name, i.title, i.artist, i.kind, i.isrc, p.start_ms, p.end_ms, p.status, p.ref_offset_ms,
          p.speed, p.confidence, \(table == .plays ? "p.identified_at_ms" : "NULL")
        FROM plays AS p
          JOIN channels AS c ON c.id = p.channel_id
          JOIN catalog_items AS i ON i.id = p.item_id
        """
    case .events:
      alias = "e"
      select = """
        SELECT e.id, c.name, e.kind, e.start_ms, e.end_ms, e.detail
        FROM events AS e
          LEFT JOIN channels AS c ON c.id = e.channel_id
        """
    case .alerts:
      alias = "a"
      select = """
        SELECT a.id, c.name, a.kind, a.start_ms, a.end_ms, a.detail
        FROM alerts AS a
          LEFT JOIN channels AS c ON c.id = a.channel_id
        """
    }
    if let channel = filter.channel {
      let name = parameter(.text(channel))
      conditions.append(table == .alerts ? "(c.name = \(name) OR a.channel_id IS NULL)" : "c.name = \(name)")
    }
    if let from = filter.from {
      // A parameter for each use, as for the cursor below.
      let milliseconds = from.millisecondsSince1970
      switch table {
      case .plays, .playsWithoutIdentifiedAt:
        conditions.append(
          "(p.start_ms >= \(parameter(.integer(milliseconds))) OR p.end_ms > \(parameter(.integer(milliseconds))) "
            + "OR p.status = 'open')")
      case .events:
        conditions.append(
          "(e.start_ms >= \(parameter(.integer(milliseconds))) OR e.end_ms > \(parameter(.integer(milliseconds))))")
      case .alerts:
        conditions.append(
          "(a.start_ms >= \(parameter(.integer(milliseconds))) OR a.end_ms IS NULL "
            + "OR a.end_ms > \(parameter(.integer(milliseconds))))")
      }
    }
    if let to = filter.to {
      conditions.append("\(alias).start_ms < \(parameter(.integer(to.millisecondsSince1970)))")
    }
    if let cursor = filter.cursor {
      // A parameter for each use: SQLite's `?` takes the next value each time.
      let before = parameter(.integer(cursor.startMilliseconds))
      let same = parameter(.integer(cursor.startMilliseconds))
      let id = parameter(.integer(cursor.id))
      conditions.append("(\(alias).start_ms < \(before) OR (\(alias).start_ms = \(same) AND \(alias).id < \(id)))")
    }
    let sql = """
      \(select)
      \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
      ORDER BY \(alias).start_ms DESC, \(alias).id DESC
      LIMIT \(parameter(.integer(Int64(filter.limit) + 1)))
      """
    return (sql, arguments)
  }

  /// The first `limit` rows, and the cursor after the last of them when a further row was read.
  static func page<Row>(_ rows: [Row], limit: Int, cursor: (Row) -> Cursor) -> ([Row], Cursor?) {
    guard rows.count > limit, let last = rows.prefix(limit).last else { return (rows, nil) }
    return (Array(rows.prefix(limit)), cursor(last))
  }

  /// A play from a row of the plays statement.
  static func play(_ row: some PlayLogPageRow) throws -> Play {
    Play(
      id: try row.int64(0), channel: try row.string(1), title: try row.string(2), artist: try row.string(3),
      kind: try row.string(4), isrc: try row.string(5), start: try row.date(6), end: try row.date(7),
      status: try row.string(8), refOffsetSeconds: Double(try row.int64(9)) / 1000, speed: try row.double(10),
      confidence: try row.double(11), identifiedAt: try row.optionalDate(12))
  }

  /// An event from a row of the events statement.
  static func event(_ row: some PlayLogPageRow) throws -> Event {
    Event(
      id: try row.int64(0), channel: try row.optionalString(1), kind: try row.string(2), start: try row.date(3),
      end: try row.optionalDate(4), detail: try row.string(5))
  }

  /// An alert from a row of the alerts statement.
  static func alert(_ row: some PlayLogPageRow) throws -> Alert {
    Alert(
      id: try row.int64(0),
      alert: AlertRecord(
        channel: try row.optionalString(1), kind: try row.string(2), start: try row.date(3),
        end: try row.optionalDate(4), detail: try row.string(5)))
  }
}

/// A result row of either engine, as the pages read it (`SQLiteRow`, `PostgreSQLRow`): each accessor throws a
/// message naming the column when the value is not of the type asked.
protocol PlayLogPageRow {
  func int64(_ column: Int) throws -> Int64
  func optionalInt64(_ column: Int) throws -> Int64?
  func double(_ column: Int) throws -> Double
  func string(_ column: Int) throws -> String
  func optionalString(_ column: Int) throws -> String?
}

extension PlayLogPageRow {
  /// An integer column of milliseconds since 1970, UTC.
  func date(_ column: Int) throws -> Date { Date(millisecondsSince1970: try int64(column)) }

  func optionalDate(_ column: Int) throws -> Date? {
    try optionalInt64(column).map(Date.init(millisecondsSince1970:))
  }
}

extension SQLiteRow: PlayLogPageRow {
  func optionalString(_ column: Int) throws -> String? {
    if case .null = values[column] { return nil }
    return try string(column)
  }
}

extension PostgreSQLRow: PlayLogPageRow {}
