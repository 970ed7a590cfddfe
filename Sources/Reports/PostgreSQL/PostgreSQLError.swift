/// A PostgreSQL call failed: what the server (or libpq) answered, its SQLSTATE, the SQL and the server, and what to
/// do about it.
///
/// A value type: safe to pass between threads.
public struct PostgreSQLError: Error, CustomStringConvertible, Sendable {
  /// The server's SQLSTATE, such as "23505" (unique violation) or "57P01" (shut down); "" when libpq failed before
  /// the server answered (no connection).
  public let sqlState: String
  /// libpq's or the server's message, one line.
  public let message: String
  /// The SQL being run, if any.
  public let sql: String?
  /// The server, as its URL without a password.
  public let url: String
  /// What to do about it: a sentence addressed to the operator.
  public let advice: String
  /// True when the server is up and refused the login: a wrong user, password or database name, which waiting does
  /// not mend (unlike a server that is down or unreachable).
  public let isLoginRefused: Bool
  /// True when the address or the password file given is unusable before any server is asked (a password in the URL,
  /// a password file that cannot be read): only a person editing the configuration or the command line mends it.
  public let isBadAddress: Bool

  /// True when waiting or restarting cannot help, only a changed configuration: a refused login or a bad address
  /// (exit status 78, on which the systemd unit does not restart).
  public var needsConfigurationFix: Bool { isLoginRefused || isBadAddress }

  init(
    sqlState: String = "", message: String, sql: String? = nil, url: String, advice: String? = nil,
    isLoginRefused: Bool = false, isBadAddress: Bool = false
  ) {
    self.sqlState = sqlState
    self.message = message
    self.sql = sql
    self.url = url
    self.isLoginRefused = isLoginRefused
    self.isBadAddress = isBadAddress
    self.advice =
      advice
      ?? (isLoginRefused
        ? "The server is up and refused the login: check the URL's user and database name (createuser, createdb) "
          + "and the password (PGPASSWORD, ~/.pgpass or database.passwordFile)."
        : sqlState.isEmpty || sqlState.hasPrefix("08") || sqlState.hasPrefix("57")
          ? "Check that the PostgreSQL server is running and reachable, and the URL, user and password (PGPASSWORD, "
            + "~/.pgpass or database.passwordFile)."
          : "This is a bug in broadcast-monitor or a damaged database: please report it with this message.")
  }

  /// True when the connection, not the request, failed: the server is down, restarting or unreachable. The request
  /// may be retried once the server is back.
  public var isConnectionLost: Bool {
    (!needsConfigurationFix && sqlState.isEmpty) || sqlState.hasPrefix("08") || sqlState.hasPrefix("57")
      || sqlState == "53300"
  }

  public var description: String {
    var text = "PostgreSQL play log \(url): \(message)"
    if !sqlState.isEmpty { text += " (SQLSTATE \(sqlState))" }
    if let sql, !isConnectionLost { text += " in: \(sql.split(separator: "\n").joined(separator: " "))" }
    return text + ". " + advice
  }
}
