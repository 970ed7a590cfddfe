import CPostgres
import Foundation

/// One libpq connection to a PostgreSQL server, opened from a `postgresql://USER@HOST:PORT/DB` URL.
///
/// The password never comes from the URL (a URL with one is refused: it would show in `ps` and in logs): libpq
/// takes it from `PGPASSWORD` or `~/.pgpass` (or `PGPASSFILE`), or the caller reads it from the file the
/// configuration names (`passwordFile`). A connection that the server dropped (a restart, an outage) is opened
/// again by the next call (`PQreset`); `onReconnect` then runs first, so that the owner takes back what a session
/// holds (its advisory locks). Opened with `waitingForServer`, a connection whose server cannot be reached yet is
/// left closed instead of throwing, and the first call opens it (and runs `onReconnect`).
///
/// Every statement is sent with `PQexecParams` in text format; values are ``PostgreSQLValue``s.
///
/// Thread: one thread at a time; not Sendable.
final class PostgreSQLConnection {
  /// The URL, as given (it holds no password).
  let url: String
  private var connection: OpaquePointer?
  /// The connection parameters, for opening it later.
  private let parameters: [(String, String)]
  /// Runs after the connection was opened again, before the statement that needed it.
  var onReconnect: (() throws -> Void)?
  /// False from the moment the connection is (re)opened until `onReconnect` has succeeded on it.
  private var isSetUp = true
  /// Set by `close()`: the connection is not opened again.
  private var isClosed = false

  /// How long a connection attempt may take, in seconds, unless the URL sets `connect_timeout`: long enough for a
  /// server across a WAN, short enough that the writer's retries go on (the spool keeps the plays meanwhile).
  static let connectTimeoutSeconds = 5

  /// TCP keepalive and a limit on unacknowledged data, at both ends of the connection, so that an end that vanished
  /// without closing it (a power cut, a cable pulled, a machine frozen) is noticed within about a minute, not after
  /// Linux's two hours of keepalive or a quarter of an hour of retransmissions. Here: a write to a server that went
  /// away fails, and the writer spools and retries. At the server (`options`): the session of a node that lost its
  /// power ends, so its lease and its channels are free for a node started with them, and the other nodes'
  /// `node_down` says its session ended. Idle 30 s, then a probe every 10 s, given up after 3; over a Unix socket
  /// the server ignores them. The URL may set its own.
  static let keepaliveParameters: [(String, String)] = [
    ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
    ("tcp_user_timeout", "60000"),
    (
      "options",
      "-c tcp_keepalives_idle=30 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3 -c tcp_user_timeout=60000"
    ),
  ]

  /// Opens a connection.
  /// - Parameter passwordFile: a file whose first line is the password, when the configuration names one.
  /// - Parameter waitingForServer: when the server cannot be reached (down, starting, unreachable), return a closed
  ///   connection that the first call opens, rather than throw.
  /// - Throws: ``PostgreSQLError`` when the URL holds a password or the password file cannot be read (its
  ///   `isBadAddress`), or the server refuses the login (its `isLoginRefused`), or cannot be reached (unless
  ///   `waitingForServer`).
  init(url: String, passwordFile: String? = nil, waitingForServer: Bool = false) throws {
    self.url = url
    if let problem = Self.urlProblem(url) {
      throw PostgreSQLError(
        message: problem, url: Self.redacted(url), advice: "Give the URL as postgresql://USER@HOST:PORT/DB.",
        isBadAddress: true)
    }
    var parameters: [(String, String)] =
      [("connect_timeout", "\(Self.connectTimeoutSeconds)"), ("application_name", "broadcast-monitor")]
      + Self.keepaliveParameters + [("dbname", url)]
    if let passwordFile {
      let text: String
      do {
        text = try String(contentsOfFile: passwordFile, encoding: .utf8)
      } catch {
        throw PostgreSQLError(
          message: "cannot read the password file \(passwordFile): \(error.localizedDescription)", url: url,
          advice: "Check database.passwordFile in the configuration and that the user running broadcast-monitor "
            + "can read it.", isBadAddress: true)
      }
      // The first line, without its line end (`\r\n` from Windows included).
      parameters.append(("password", String(DataFileLines.numbered(text).first?.text ?? "")))
    }
    self.parameters = parameters
    do {
      try open()
    } catch let error as PostgreSQLError where waitingForServer && !error.isLoginRefused {
      isSetUp = false  // left closed: the first call opens it
    }
  }

  /// True while the connection is open and usable.
  var isOpen: Bool { connection != nil && PQstatus(connection) == CONNECTION_OK }

  /// Opens the connection (a new one). On failure, asks the server whether it is up (`PQpingParams`): a server
  /// that answers but refuses the login has the wrong user, password or database, which no retry mends.
  private func open() throws {
    PQfinish(connection)
    connection = Self.connect(parameters)
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = Self.message(connection)
      PQfinish(connection)
      connection = nil
      throw PostgreSQLError(
        message: "cannot connect: \(message)", url: url,
        isLoginRefused: Self.isRefusal(ping: Self.ping(parameters), message: message))
    }
    silenceNotices()
  }

  /// True when a failed connection's `ping` and message mean the server is up and refused this login (user,
  /// password, database), rather than down, starting, shutting down, full or slow. libpq gives no SQLSTATE for a
  /// failed connection, so a full server ("too many clients", 53300), which pings as up, is told by its message, in
  /// the server's English (lc_messages C, Debian's default); so is a connection that timed out or broke off (libpq's
  /// own messages) on a server busy enough to answer the ping that follows but not the login within
  /// `connectTimeoutSeconds`.
  static func isRefusal(ping: PGPing, message: String) -> Bool {
    let busy = [
      "too many clients", "connection slots are reserved", "out of memory", "timeout expired",
      "server closed the connection unexpectedly", "could not receive data from server",
      "could not send data to server", "Connection reset by peer",
    ]
    switch ping {
    case PQPING_OK: return !busy.contains { message.contains($0) }
    case PQPING_NO_ATTEMPT: return true  // libpq cannot even try: the parameters are invalid
    default: return false
    }
  }

  private static func ping(_ parameters: [(String, String)]) -> PGPing {
    withKeywordArrays(parameters) { PQpingParams($0, $1, 1) }
  }

  /// Calls `body` with `parameters` as libpq's keyword and value arrays (C strings, each ended by a null pointer),
  /// as `PQconnectdbParams` and `PQpingParams` take them.
  private static func withKeywordArrays<Result>(
    _ parameters: [(String, String)],
    _ body: ([UnsafePointer<CChar>?], [UnsafePointer<CChar>?]) -> Result
  ) -> Result {
    let keys = parameters.map { strdup($0.0) }
    let values = parameters.map { strdup($0.1) }
    defer {
      for pointer in keys + values { free(pointer) }
    }
    return body(keys.map { UnsafePointer($0) } + [nil], values.map { UnsafePointer($0) } + [nil])
  }

  deinit { PQfinish(connection) }

  /// What is wrong with `url` as a play log's address; nil when it is usable.
  static func urlProblem(_ url: String) -> String? {
    guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
      return "not a postgresql:// URL"
    }
    let rest = url.drop { $0 != "/" }.dropFirst(2)
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") {
      return "the URL holds a password, which would show in the process list and the logs: remove it, and give "
        + "the password in PGPASSWORD, ~/.pgpass or the file named by database.passwordFile"
    }
    return nil
  }

  /// `url` with any password in it replaced by `***`, for messages.
  static func redacted(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    let rest = url[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
    return String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
  }

  private static func connect(_ parameters: [(String, String)]) -> OpaquePointer? {
    withKeywordArrays(parameters) { PQconnectdbParams($0, $1, 1) }
  }

  private static func message(_ connection: OpaquePointer?) -> String {
    guard let connection, let text = PQerrorMessage(connection) else { return "out of memory" }
    return String(cString: text).split(separator: "\n").joined(separator: "; ")
  }

  /// The server's notices (such as "relation already exists, skipping") would go to standard error: dropped.
  private func silenceNotices() {
    PQsetNoticeReceiver(connection, { _, _ in }, nil)
  }

  /// Opens the connection again when the server dropped it; throws when it is still down.
  /// Opens the connection again when the server dropped it, then runs `onReconnect` (again, until it succeeds:
  /// nothing is sent before it did); throws when the server is still down.
  private func ensureConnected() throws {
    let isUp = PQstatus(connection) == CONNECTION_OK
    guard !isUp || !isSetUp else { return }
    guard !isClosed else { throw PostgreSQLError(message: "the connection is closed", url: url) }
    if !isUp {
      isSetUp = false
      if connection == nil {
        try open()
      } else {
        PQreset(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
          throw PostgreSQLError(message: "cannot connect: \(Self.message(connection))", url: url)
        }
        silenceNotices()
      }
    }
    isSetUp = true  // the hook's own statements run on this connection
    do {
      try onReconnect?()
    } catch {
      isSetUp = false
      throw error
    }
  }

  /// Runs one statement with `values` for `$1`, `$2`, … and returns its rows.
  @discardableResult
  func query(_ sql: String, _ values: [PostgreSQLValue] = []) throws -> [PostgreSQLRow] {
    try ensureConnected()
    let texts = values.map { $0.text.map { strdup($0) } ?? nil }
    defer { for text in texts { free(text) } }
    let pointers = texts.map { $0.map { UnsafePointer($0) } }
    let result = PQexecParams(connection, sql, Int32(values.count), nil, pointers, nil, nil, 0)
    defer { PQclear(result) }
    return try rows(of: result, sql: sql)
  }

  /// Runs `COPY (query) TO STDOUT` — `sql` is the whole statement, with no parameters — and hands `body` each
  /// message of the stream as the server sends it: one row each, in the statement's format (``BinaryCopyParser``
  /// reads the binary one). One stream instead of a result per batch: no row is converted to strings on the way.
  /// When `body` throws, the connection is closed (the rest of the stream is not read) and the error thrown.
  func copyOut(_ sql: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    try ensureConnected()
    let started = PQexec(connection, sql)
    guard PQresultStatus(started) == PGRES_COPY_OUT else {
      defer { PQclear(started) }
      _ = try rows(of: started, sql: sql)
      throw PostgreSQLError(message: "COPY did not start", sql: sql, url: url)
    }
    PQclear(started)
    while true {
      var buffer: UnsafeMutablePointer<CChar>?
      let length = PQgetCopyData(connection, &buffer, 0)
      guard length > 0, let buffer else { break }  // -1: the end; -2: an error, in the result below
      defer { PQfreemem(buffer) }
      let row = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
      do {
        try body(UnsafeBufferPointer(start: row, count: Int(length)))
      } catch {
        close()
        throw error
      }
    }
    var failure: Error?
    while let result = PQgetResult(connection) {
      defer { PQclear(result) }
      do { _ = try rows(of: result, sql: sql) } catch { failure = failure ?? error }
    }
    if let failure { throw failure }
  }

  /// Runs `sql`, which may hold several statements separated by semicolons and takes no parameters.
  func execute(_ sql: String) throws {
    try ensureConnected()
    let result = PQexec(connection, sql)
    defer { PQclear(result) }
    _ = try rows(of: result, sql: sql)
  }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A dropped connection
  /// rolls it back on the server by itself.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN")
    let value: T
    do {
      value = try body()
    } catch {
      if PQstatus(connection) == CONNECTION_OK { PQclear(PQexec(connection, "ROLLBACK")) }
      throw error
    }
    try execute("COMMIT")
    return value
  }

  /// Closes the connection. Further calls throw.
  func close() {
    PQfinish(connection)
    connection = nil
    isClosed = true
  }

  private func rows(of result: OpaquePointer?, sql: String) throws -> [PostgreSQLRow] {
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      var state = ""
      if let result, let field = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
        state = String(cString: field)
      }
      let message =
        if let result, let text = PQresultErrorMessage(result), text.pointee != 0 {
          String(cString: text).split(separator: "\n").joined(separator: "; ")
        } else {
          Self.message(connection)
        }
      throw PostgreSQLError(sqlState: state, message: message, sql: sql, url: url)
    }
    guard status == PGRES_TUPLES_OK else { return [] }
    let rowCount = PQntuples(result)
    let columnCount = PQnfields(result)
    var rows: [PostgreSQLRow] = []
    rows.reserveCapacity(Int(rowCount))
    for row in 0..<rowCount {
      var values: [String?] = []
      values.reserveCapacity(Int(columnCount))
      for column in 0..<columnCount {
        values.append(PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column)))
      }
      rows.append(PostgreSQLRow(values: values, sql: sql, url: url))
    }
    return rows
  }
}

@available(*, unavailable, message: "a PostgreSQLConnection is used by one thread at a time: open one per thread")
extension PostgreSQLConnection: Sendable {}
