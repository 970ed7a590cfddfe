import CPostgres
import TestSupport
import Testing

@testable import Reports

@Suite("PostgreSQLConnection")
struct PostgreSQLConnectionTests {
  @Test(
    "A server that answers the ping refused the login, unless the connection was busy, slow or broken off",
    arguments: [
      ("FATAL:  password authentication failed for user \"bm\"", true),
      ("FATAL:  role \"nobody\" does not exist", true),
      ("FATAL:  database \"plays\" does not exist", true),
      ("FATAL:  sorry, too many clients already", false),
      ("FATAL:  remaining connection slots are reserved for roles with the SUPERUSER attribute", false),
      ("connection to server at \"127.0.0.1\", port 41585 failed: timeout expired", false),
      ("server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally", false),
      ("could not receive data from server: Connection reset by peer", false),
    ])
  func refusal(message: String, refused: Bool) {
    #expect(PostgreSQLConnection.isRefusal(ping: PQPING_OK, message: message) == refused)
  }

  @Test("A server that does not answer the ping, or is starting, never refused the login")
  func noAnswer() {
    for ping in [PQPING_NO_RESPONSE, PQPING_REJECT] {
      #expect(!PostgreSQLConnection.isRefusal(ping: ping, message: "FATAL:  password authentication failed"))
    }
    #expect(PostgreSQLConnection.isRefusal(ping: PQPING_NO_ATTEMPT, message: "invalid connection option"))
  }

  @Test(
    "The server keeps TCP keepalive on the session, so that a node that lost its power frees its lease within a minute"
  )
  func keepalive() throws {
    let server = try PostgreSQLTestServer()
    let connection = try PostgreSQLConnection(url: try server.makeDatabase("plays"))
    var settings: [String] = []
    for name in ["tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count", "tcp_user_timeout"] {
      settings.append(try connection.query("SHOW \(name)")[0].string(0))
    }
    #expect(settings == ["30", "10", "3", "60000"], "seconds, and milliseconds for tcp_user_timeout")
    let client = try connection.query(
      "SELECT client_addr IS NOT NULL FROM pg_stat_activity WHERE pid = pg_backend_pid()")[0].string(0)
    #expect(client == "t", "a TCP session: the settings apply to it")
  }
}
