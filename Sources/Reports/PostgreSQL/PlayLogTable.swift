/// One table of the play log as `db copy` and the reports' read of a PostgreSQL play log move it: its columns and
/// their types, in the order of the schema. Rows keep their ids, so the copy orders ties exactly as the original.
///
/// A value type: safe to pass between threads.
struct PlayLogTable: Sendable {
  enum Column: Sendable {
    case integer, optionalInteger, real, text
  }

  let name: String
  /// Column names and types; the first is `id`.
  let columns: [(name: String, type: Column)]
  /// The time a row is at, for reading a span of the log: nil for a table read whole.
  var timeColumn: String? = nil

  /// Every table of the play log that holds evidence, parents before children (the foreign keys' order).
  /// `schema_migrations` is each database's own, and `channel_owners` a live deployment's state: neither is moved.
  static let all: [PlayLogTable] = [
    PlayLogTable(name: "channels", columns: [("id", .integer), ("name", .text)]),
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
      ], timeColumn: "start_ms"),
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

  /// The statement that copies this table's rows out of PostgreSQL in id order (`COPY … TO STDOUT`, which takes no
  /// parameters: the span's bounds and the channel's id are numbers written into it): with `span`, only the rows
  /// whose time (``timeColumn``) is in it; with `channelID`, only that channel's rows (a table without a time is
  /// read whole).
  func copyStatement(span: Range<Int64>?, channelID: Int64?) -> String {
    var conditions: [String] = []
    if let timeColumn, let span {
      conditions.append("\(timeColumn) >= \(span.lowerBound) AND \(timeColumn) < \(span.upperBound)")
    }
    if timeColumn != nil, let channelID { conditions.append("channel_id = \(channelID)") }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return "COPY (SELECT \(columnList) FROM \(name)\(filter) ORDER BY id) TO STDOUT"
  }

  /// One row of `COPY … TO STDOUT` in text format (values separated by tabs, `\N` for null, backslash escapes in
  /// text) as SQLite values: integers parsed from their digits, doubles from their shortest exact text (as the
  /// server writes them, extra_float_digits 1), text unescaped.
  func sqliteValues(copyRow row: UnsafeBufferPointer<UInt8>) throws -> [SQLiteValue] {
    var values: [SQLiteValue] = []
    values.reserveCapacity(columns.count)
    var start = 0
    for column in columns {
      var end = start
      while end < row.count && row[end] != 0x09 { end += 1 }
      let field = UnsafeBufferPointer(rebasing: row[start..<end])
      if field.count == 2 && field[0] == 0x5C && field[1] == 0x4E {  // \N
        values.append(.null)
      } else {
        switch column.type {
        case .integer, .optionalInteger:
          guard let integer = Self.integer(field) else { throw copyError(row, column.name) }
          values.append(.integer(integer))
        case .real:
          guard let real = Double(String(decoding: field, as: UTF8.self)) else { throw copyError(row, column.name) }
          values.append(.real(real))
        case .text:
          values.append(.text(Self.unescaped(field)))
        }
      }
      start = end + 1
    }
    return values
  }

  private func copyError(_ row: UnsafeBufferPointer<UInt8>, _ column: String) -> PostgreSQLError {
    PostgreSQLError(
      message: "unreadable \(name).\(column) in the row \(String(decoding: row, as: UTF8.self))", url: "COPY")
  }

  /// A decimal integer, or nil.
  private static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard !digits.isEmpty else { return nil }
    let negative = digits[0] == 0x2D
    var value: Int64 = 0
    for index in (negative ? 1 : 0)..<digits.count {
      let digit = Int64(digits[index]) - 0x30
      guard digit >= 0 && digit <= 9 else { return nil }
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.subtractingReportingOverflow(digit)  // negative, to hold Int64.min
      guard !overflow && !overflow2 else { return nil }
      value = sum
    }
    if negative { return value }
    let (positive, overflow) = (0 as Int64).subtractingReportingOverflow(value)
    return overflow ? nil : positive
  }

  /// COPY's text escapes undone: `\\`, `\t`, `\n`, `\r`, `\b`, `\f`, `\v` (the server writes no octal or hex ones).
  static func unescaped(_ field: UnsafeBufferPointer<UInt8>) -> String {
    guard field.contains(0x5C) else { return String(decoding: field, as: UTF8.self) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(field.count)
    var index = 0
    while index < field.count {
      let byte = field[index]
      index += 1
      guard byte == 0x5C, index < field.count else {
        bytes.append(byte)
        continue
      }
      let escaped = field[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "t"): bytes.append(0x09)
      case UInt8(ascii: "n"): bytes.append(0x0A)
      case UInt8(ascii: "r"): bytes.append(0x0D)
      case UInt8(ascii: "b"): bytes.append(0x08)
      case UInt8(ascii: "f"): bytes.append(0x0C)
      case UInt8(ascii: "v"): bytes.append(0x0B)
      default: bytes.append(escaped)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
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
