import Foundation

/// A private PostgreSQL server for one test: `initdb` into a temporary folder, `pg_ctl start` on a free port of
/// 127.0.0.1 (and a Unix socket in the folder), stopped and removed when the value is released or ``stop()`` is
/// called. Debian's `postgresql` package provides the programs (`pg_config --bindir` finds them).
///
/// PostgreSQL refuses to run as root: under root the folder is given to the `postgres` user (created by the Debian
/// package) and every program runs as that user through `runuser`. Authentication is `trust` for the test user
/// `bm`, except that ``init(password:)`` asks for a password over TCP (scram-sha-256).
///
/// ``kill()`` ends the server with SIGKILL (an outage as a crash or a power cut makes it); ``start()`` brings it
/// back on the same port with the same data.
///
/// Threads: one thread at a time.
public final class PostgreSQLTestServer {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The TCP port on 127.0.0.1.
  public let port: UInt16
  /// The superuser the tests connect as.
  public let user = "bm"
  private let folder: TemporaryDirectory
  private let binFolder: String
  private let runAs: String?
  private var dataPath: String { folder.file("data").path }
  /// The folder of the server's Unix socket (`.s.PGSQL.PORT`).
  public var socketFolder: String { folder.url.path }
  public var logPath: String { folder.file("server.log").path }

  /// Creates the cluster and starts the server; waits until it accepts connections.
  /// - Parameter password: when given, TCP connections need it (the Unix socket stays `trust`).
  public init(password: String? = nil) throws {
    folder = try TemporaryDirectory(prefix: "bm-postgres")
    port = try LocalTCP.freePort()
    let config = try Subprocess.run("pg_config", ["--bindir"])
    guard config.status == 0 else {
      throw Failure(description: "pg_config not found: install Debian's libpq-dev and postgresql (scripts/setup.sh)")
    }
    binFolder = config.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    runAs = getuid() == 0 ? "postgres" : nil
    if runAs != nil {
      let chown = try Subprocess.run("chown", ["postgres", folder.url.path])
      guard chown.status == 0 else { throw Failure(description: "chown postgres \(folder.url.path): \(chown)") }
    }
    var initdb = ["-D", dataPath, "-U", user, "-E", "UTF8", "--locale=C", "--no-sync", "--auth-local=trust"]
    if let password {
      let passwordFile = folder.file("password").path
      try password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
      if runAs != nil { _ = try Subprocess.run("chown", ["postgres", passwordFile]) }
      initdb += ["--auth-host=scram-sha-256", "--pwfile=\(passwordFile)"]
    } else {
      initdb += ["--auth-host=trust"]
    }
    try run("initdb", initdb)
    try start()
  }

  deinit { stop() }

  /// The URL of database `name` on this server, as `--db` takes it.
  public func url(database name: String = "postgres") -> String {
    "postgresql://\(user)@127.0.0.1:\(port)/\(name)"
  }

  /// Creates database `name` (through `psql` on the Unix socket) and returns its URL.
  public func makeDatabase(_ name: String) throws -> String {
    _ = try psql("CREATE DATABASE \(name)")
    return url(database: name)
  }

  /// Runs `sql` in database `database` with `psql` and returns what it printed (unaligned, tuples only).
  @discardableResult
  public func psql(_ sql: String, database: String = "postgres") throws -> String {
    try run(
      "psql",
      [
        "-h", folder.url.path, "-p", "\(port)", "-U", user, "-d", database, "-X", "-A", "-t", "-q",
        "-v", "ON_ERROR_STOP=1", "-c", sql,
      ])
  }

  /// Each channel's owner in the play log `database`, as `CHANNEL=NODE` lines sorted by channel.
  public func channelOwners(database: String) throws -> String {
    try psql(
      "SELECT c.name || '=' || o.node FROM channel_owners o JOIN channels c ON c.id = o.channel_id ORDER BY 1",
      database: database)
  }

  /// Starts the server (again) and waits until it accepts connections. After ``kill()`` the old server's processes
  /// may hold its shared memory for a moment: the start is retried until they are gone (at most `timeoutSeconds`).
  public func start(timeoutSeconds: Double = 60) throws {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while true {
      do {
        try run(
          "pg_ctl",
          [
            "-D", dataPath, "-l", logPath, "-w", "-t", "\(Int(timeoutSeconds))", "-o",
            "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories=\(folder.url.path) "
              + "-c fsync=off -c max_connections=200", "start",
          ])
        break
      } catch {
        guard Date() < deadline else { throw error }
        usleep(100_000)  // the killed server's processes are still exiting; try again
      }
    }
    try waitUntilReady(timeoutSeconds: timeoutSeconds)
  }

  /// Waits until `pg_isready` says the server accepts connections on its TCP port.
  public func waitUntilReady(timeoutSeconds: Double = 60) throws {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while true {
      let ready = try Subprocess.run(
        binFolder + "/pg_isready", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", "postgres"])
      if ready.status == 0 { return }
      guard Date() < deadline else {
        throw Failure(description: "PostgreSQL on port \(port) not ready after \(timeoutSeconds) s: \(ready)")
      }
      usleep(50_000)
    }
  }

  /// The server's postmaster pid, from `postmaster.pid`; nil when it is not running.
  public var pid: Int32? {
    guard let text = try? String(contentsOfFile: dataPath + "/postmaster.pid", encoding: .utf8),
      let first = text.split(separator: "\n").first, let pid = Int32(first), Foundation.kill(pid, 0) == 0
    else { return nil }
    return pid
  }

  /// Ends the server with SIGKILL, and waits until its postmaster is gone (its backends exit by themselves).
  public func kill() throws {
    guard let pid else { return }
    Foundation.kill(pid, SIGKILL)
    let deadline = Date().addingTimeInterval(30)
    while Foundation.kill(pid, 0) == 0 {
      guard Date() < deadline else { throw Failure(description: "postmaster \(pid) survived SIGKILL for 30 s") }
      usleep(10_000)
    }
  }

  /// Stops the server at once (`pg_ctl stop -m immediate`). Calling it again does nothing.
  public func stop() {
    guard pid != nil else { return }
    _ = try? run("pg_ctl", ["-D", dataPath, "-m", "immediate", "-w", "stop"])
  }

  /// Runs one of PostgreSQL's programs (as `postgres` under root); throws with its output when it fails.
  ///
  /// Through a shell that first closes every descriptor above 2: Foundation's `Process` learns that its child ended
  /// when a socket the child inherits is closed, and the server that `pg_ctl start` leaves running would otherwise
  /// inherit it too, so that the start would never seem to end.
  @discardableResult
  private func run(_ program: String, _ arguments: [String]) throws -> String {
    let path = binFolder + "/" + program
    let command = (runAs.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [path] + arguments
    let closeAndRun =
      "for fd in $(ls /proc/$$/fd); do if [ \"$fd\" -gt 2 ]; then eval \"exec $fd>&-\"; fi; done; exec \"$@\""
    let result = try Subprocess.run("/bin/bash", ["-c", closeAndRun, "postgres-program"] + command)
    guard result.status == 0 else {
      let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
      throw Failure(description: "\(program) \(arguments.joined(separator: " ")): \(result)\nserver log:\n\(log)")
    }
    return result.stdout
  }
}
