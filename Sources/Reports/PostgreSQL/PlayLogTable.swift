/// One table of the play log as `db copy` and the reports' read of a PostgreSQL play log move it: its columns and
/// their types, in the order of the schema. Rows keep their ids, so the copy orders ties exactly as the original.
///
/// A value type: safe to pass between threads.
struct PlayLogTable: Sendable {
  enum Column: Sendable {
    case integer, optionalInteger, real, text
  }

  let name: String
  /// Column names and types; the first is the key the rows are copied in the order of: `id`, but in
  /// `channel_heartbeats`.
  let columns: [(name: String, type: Column)]
  /// The time a row is at, for reading a span of the log: nil for a table read whole.
  var timeColumn: String? = nil
  /// Whether a read of one channel's rows keeps the monitor's own (no channel): the monitor's restarts end a gap
  /// that was written without an end (`PlayLogReader.unheardSpans`).
  var keepsMonitorRows = false
  /// Whether the table holds evidence, which `db copy` moves (and verifies); false for the live deployment's state
  /// that only the reports' read copies.
  var isEvidence = true
  /// Whether a read of a span also takes the gaps that began before it and reach into it: a channel down for days
  /// before a report's span was not heard in it either. A gap reaches as far as `PlayLogReader.unheardSpans` takes
  /// it (`PlayLogReader.gapEnd(of:)`): to its end, or else to its channel's next reconnect or the monitor's next
  /// restart, or on.
  var keepsGapsIntoSpan = false

  /// The tables `db copy` moves: those that hold evidence.
  static var evidence: [PlayLogTable] { all.filter(\.isEvidence) }

  /// Every table of the play log that the reports read, parents before children (the foreign keys' order).
  /// `schema_migrations` is each database's own, and `channel_owners` and `node_heartbeats` a live deployment's
  /// state: none is read.
  /// `channel_heartbeats`, the running monitors' heartbeats, is state too, which `db copy` does not move, but
  /// `reconcile` reads it: a channel is not heard after its heartbeat, as long as no monitor runs to write another.
  static let all: [PlayLogTable] = [
    PlayLogTable(name: "channels", columns: [("id", .integer), ("name", .text)]),
    PlayLogTable(
      name: "channel_heartbeats", columns: [("channel_id", .integer), ("node", .text), ("heard_through_ms", .integer)],
      isEvidence: false),
    PlayLogTable(
      name: "catalog_items",
      columns: [
        ("id", .integer), ("item_key", .text), ("title", .text), ("artist", .text), ("album", .text), ("isrc", .text),
        ("label", .text), ("kind", .text), ("attributes_json", .text), ("duration_ms", .optionalInteger),
      ]),
    PlayLogTable(
      name: "plays",
      columns: [
        ("id", .integer), ("channel_id", .integer), ("item_id", .integer), ("start_ms", .integer), ("end_ms", .integer),
        ("ref_offset_ms", .integer), ("speed", .real), ("confidence", .real), ("detected_at_ms", .integer),
        ("status", .text), ("updated_at_ms", .integer), ("node", .text), ("identified_at_ms", .optionalInteger),
      ], timeColumn: "start_ms"),
    PlayLogTable(
      name: "events",
      columns: [
        ("id", .integer), ("channel_id", .optionalInteger), ("kind", .text), ("start_ms", .integer),
        ("end_ms", .optionalInteger), ("detail", .text),
      ], timeColumn: "start_ms", keepsMonitorRows: true, keepsGapsIntoSpan: true),
    PlayLogTable(
      name: "schedule",
      columns: [
        ("id", .integer), ("channel_id", .integer), ("scheduled_at_ms", .integer), ("cart", .text),
        ("advertiser", .text), ("title", .text), ("length_ms", .optionalInteger),
      ], timeColumn: "scheduled_at_ms"),
    PlayLogTable(
      name: "alerts",
      columns: [
        ("id", .integer), ("channel_id", .optionalInteger), ("kind", .text), ("start_ms", .integer),
        ("end_ms", .optionalInteger), ("detail", .text),
      ], timeColumn: "start_ms"),
    PlayLogTable(
      name: "air_stretches",
      columns: [
        ("id", .integer), ("channel_id", .integer), ("start_ms", .integer), ("end_ms", .integer), ("label", .text),
        ("item_key", .text), ("music_confidence", .real),
      ], timeColumn: "start_ms"),
    PlayLogTable(
      name: "unknown_segments",
      columns: [
        ("id", .integer), ("channel_id", .integer), ("start_ms", .integer), ("end_ms", .integer),
        ("music_confidence", .real), ("cluster", .integer), ("cluster_offset_ms", .integer), ("fingerprint", .text),
        ("clip_path", .text), ("play_id", .optionalInteger), ("clip_start_ms", .optionalInteger),
        ("clip_end_ms", .optionalInteger),
      ]),
    PlayLogTable(
      name: "play_clips",
      columns: [
        ("id", .integer), ("channel_id", .integer), ("item_key", .text), ("play_start_ms", .integer),
        ("play_end_ms", .integer), ("clip_start_ms", .integer), ("clip_end_ms", .integer), ("clip_path", .text),
      ], timeColumn: "play_start_ms"),
    PlayLogTable(
      name: "listener_samples",
      columns: [("id", .integer), ("channel_id", .integer), ("sampled_at_ms", .integer), ("listeners", .integer)],
      timeColumn: "sampled_at_ms"),
  ]

  var columnList: String { columns.map(\.name).joined(separator: ", ") }

  /// The rows after id `afterID`, at most `limit`, in id order, from SQLite.
  func rows(in database: SQLiteDatabase, afterID: Int64, limit: Int) throws -> [[SQLiteValue]] {
    try database.query(
      "SELECT \(columnList) FROM \(name) WHERE id > ? ORDER BY id LIMIT ?", [.integer(afterID), .integer(Int64(limit))]
    ).map(\.values)
  }

  /// The rows after id `afterID`, at most `limit`, in id order, from PostgreSQL, as SQLite values.
  func rows(in connection: PostgreSQLConnection, afterID: Int64, limit: Int) throws -> [[SQLiteValue]] {
    try connection.query(
      "SELECT \(columnList) FROM \(name) WHERE id > $1 ORDER BY id LIMIT $2",
      [.integer(afterID), .integer(Int64(limit))]
    ).map(sqliteValues)
  }

  /// The statement that copies this table's rows out of PostgreSQL in key order (`COPY … TO STDOUT`, which takes no
  /// parameters: the span's bounds and the channel's id are numbers written into it): with `span`, only the rows whose
  /// time (``timeColumn``) is in it (and the gaps reaching into it, with ``keepsGapsIntoSpan``); with `channelID`,
  /// only that channel's rows (and the monitor's own where ``keepsMonitorRows``; a table without a time is read
  /// whole). In COPY's binary format, each column cast to the type ``bind(copyRow:to:parser:)`` reads (the play log's
  /// own types, so the casts cost nothing): no number is written out as text and parsed back.
  func copyStatement(span: Range<Int64>?, channelID: Int64?) -> String {
    var conditions: [String] = []
    if let timeColumn, let span {
      let inSpan = "\(timeColumn) >= \(span.lowerBound) AND \(timeColumn) < \(span.upperBound)"
      if keepsGapsIntoSpan {
        let gapEnd = "coalesce(\(PlayLogReader.gapEnd(of: name)), \(span.lowerBound))"
        conditions.append(
          "((\(inSpan)) OR (kind = 'gap' AND \(timeColumn) < \(span.lowerBound) AND \(gapEnd) >= \(span.lowerBound)))")
      } else {
        conditions.append(inSpan)
      }
    }
    if timeColumn != nil, let channelID {
      conditions.append(
        keepsMonitorRows ? "(channel_id = \(channelID) OR channel_id IS NULL)" : "channel_id = \(channelID)")
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let casts = columns.map { column in
      switch column.type {
      case .integer, .optionalInteger: "\(column.name)::bigint"
      case .real: "\(column.name)::double precision"
      case .text: "\(column.name)::text"
      }
    }
    return
      "COPY (SELECT \(casts.joined(separator: ", ")) FROM \(name)\(filter) ORDER BY \(columns[0].name)) TO STDOUT "
      + "(FORMAT binary)"
  }

  /// The statement that inserts one row, every column bound, into SQLite (a fresh table: no conflict to handle).
  var insertStatement: String {
    "INSERT INTO \(name)(\(columnList)) VALUES(\(columns.map { _ in "?" }.joined(separator: ", ")))"
  }

  /// Binds one row of ``copyStatement(span:channelID:)``'s stream to `statement` (``insertStatement``), straight
  /// from the message's bytes: integers and doubles from their 8 big-endian bytes, text bound in place. The
  /// bytes must stay valid until the statement has run.
  /// - Throws: ``PostgreSQLError`` for a row that is not one of this table's, ``SQLiteError`` when a bind fails.
  func bind(
    copyRow message: UnsafeBufferPointer<UInt8>, to statement: PreparedStatement, parser: inout BinaryCopyParser
  ) throws -> Bool {
    let url = parser.url
    return try parser.row(message) { index, field in
      guard let field else { return try statement.bindNull(at: Int32(index + 1)) }
      let column = columns[index]
      if column.type == .text { return try statement.bind(borrowedUTF8: field, at: Int32(index + 1)) }
      guard field.count == 8, let base = field.baseAddress else {
        throw PostgreSQLError(
          message: "unreadable COPY data of \(name).\(column.name): \(field.count) bytes where 8 were expected",
          url: url)
      }
      let bits = UInt64(bigEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
      if column.type == .real {
        try statement.bind(Double(bitPattern: bits), at: Int32(index + 1))
      } else {
        try statement.bind(Int64(bitPattern: bits), at: Int32(index + 1))
      }
    }
  }

  /// A PostgreSQL row of this table as SQLite values.
  func sqliteValues(_ row: PostgreSQLRow) throws -> [SQLiteValue] {
    try columns.indices.map { index -> SQLiteValue in
      guard row.values[index] != nil else { return .null }
      switch columns[index].type {
      case .integer, .optionalInteger: return .integer(try row.int64(index))
      case .real: return .real(try row.double(index))
      case .text: return .text(try row.string(index))
      }
    }
  }

  /// Inserts `rows` into SQLite, keeping their ids; a row whose id is there already is left as it is.
  func insert(_ rows: [[SQLiteValue]], into database: SQLiteDatabase) throws {
    let sql =
      "INSERT INTO \(name)(\(columnList)) VALUES(\(columns.map { _ in "?" }.joined(separator: ", "))) "
      + "ON CONFLICT(id) DO NOTHING"
    for row in rows { try database.run(sql, row) }
  }

  /// Inserts `rows` into PostgreSQL, keeping their ids; a row whose id is there already is left as it is.
  func insert(_ rows: [[SQLiteValue]], into connection: PostgreSQLConnection) throws {
    // PostgreSQL takes at most 65,535 parameters a statement.
    let rowsPerStatement = 1_000
    var start = 0
    while start < rows.count {
      let batch = rows[start..<min(rows.count, start + rowsPerStatement)]
      var values: [PostgreSQLValue] = []
      var tuples: [String] = []
      for row in batch {
        let first = values.count
        tuples.append("(" + row.indices.map { "$\(first + $0 + 1)" }.joined(separator: ", ") + ")")
        values += row.map(Self.postgreSQLValue)
      }
      try connection.query(
        "INSERT INTO \(name)(\(columnList)) VALUES \(tuples.joined(separator: ", ")) ON CONFLICT(id) DO NOTHING",
        values)
      start += rowsPerStatement
    }
  }

  private static func postgreSQLValue(_ value: SQLiteValue) -> PostgreSQLValue {
    switch value {
    case .null: .null
    case .integer(let integer): .integer(integer)
    case .real(let real): .real(real)
    case .text(let text): .text(text)
    }
  }

  /// One row as checksummed text: each value, tab-separated, doubles in their shortest exact form.
  static func checksumText(_ row: [SQLiteValue]) -> String {
    row.map { value in
      switch value {
      case .null: "\\N"
      case .integer(let integer): String(integer)
      case .real(let real): "\(real)"
      case .text(let text): text
      }
    }.joined(separator: "\t") + "\n"
  }
}
