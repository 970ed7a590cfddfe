import Common
import Foundation
import Matcher
import Synchronization

/// `run`'s HTTP server, assembled from the `http` settings: the listening socket (opened before the monitor, so that
/// a port in use stops the start before anything runs), the router and libmicrohttpd's threads.
///
/// On the default address (no `http.listen`, no `--http`), a port in use is logged and the server stays off: a
/// second monitor on the same machine still runs. An address given on purpose that cannot be listened on stops
/// the start with a `ConfigurationError` naming the port and the fix.
///
/// Threads: `bind`, `start` and `stop` from the control thread; `update` from any thread (the SIGHUP handler).
final class HTTPService: Sendable {
  private let server: HTTPServer
  private let token: String?
  /// The router, once started.
  private let router = Mutex<APIRouter?>(nil)

  /// Opens the listening socket; nil when the settings turn the server off, or the default port is in use.
  static func bind(_ settings: HTTPSettings, log: MonitorLog) throws(ConfigurationError) -> HTTPService? {
    guard settings.isEnabled else { return nil }
    let text = settings.listen ?? HTTPSettings.defaultListen
    do {
      let address = try ListenAddress(parsing: text)
      let token = try settings.resolvedToken { $0 }
      return HTTPService(
        server: try HTTPServer(address: address, handler: { _ in .error(503, "starting") }), token: token)
    } catch let error as ListenAddress.BindError where settings.listen == nil && error.code == EADDRINUSE {
      log.line("HTTP API off: \(error.description)")
      return nil
    } catch let error as ConfigurationError {
      throw error
    } catch {
      throw ConfigurationError(keyPath: "http.listen (--http)", reason: "\(error)")
    }
  }

  private init(server: HTTPServer, token: String?) {
    self.server = server
    self.token = token
  }

  /// The port listened on.
  var port: UInt16 { server.port }

  /// Starts answering for `monitor`.
  func start(readings: any MonitorReadings, configuration: MonitorConfiguration, log: MonitorLog) throws {
    let router = APIRouter(readings: readings, configuration: configuration, token: token, log: log)
    self.router.withLock { $0 = router }
    server.handler = { router.respond(to: $0) }
    try server.start()
    let address = server.address.isIPv6 ? "[\(server.address.host)]" : server.address.host
    log.line(
      "HTTP API on http://\(address):\(server.port)/ (/api/v1/openapi.json describes it; /metrics, /healthz)"
        + (server.address.isLoopback ? "" : "; clients need the bearer token, browsers log in at /"))
  }

  /// Takes the configuration a reload (SIGHUP) applied: the reports answer with it from the next request, and the
  /// token is read again (`http.token`, or the first line of `http.tokenFile`), so that a token is rotated by
  /// changing it and sending SIGHUP; the logins opened with the old one end. A token that cannot be read keeps the
  /// running one, and so does a configuration without a token while the server listens beyond loopback (its
  /// address changes only at the next start). Any thread.
  func update(configuration: MonitorConfiguration, log: MonitorLog) {
    guard let router = router.withLock({ $0 }) else { return }
    var token = router.token
    do {
      let read = try configuration.http.resolvedToken { $0 }
      if read == nil && !server.address.isLoopback {
        log.line(
          "SIGHUP: the http section has no token any more, but the server listens on \(server.address.host), "
            + "beyond loopback: the running token stays (set http.listen to 127.0.0.1 and restart to serve "
            + "without one)", severity: .error)
      } else {
        token = read
      }
    } catch {
      log.line("SIGHUP: http token not reloaded, the running one stays: \(error)", severity: .error)
    }
    if token != router.token {
      log.line(
        "SIGHUP: http token changed: the old one is refused from now on, and the dashboard's logins made with it "
          + "have ended")
    }
    router.update(configuration: configuration, token: token)
  }

  /// Ends the event streams, then stops the server.
  func stop() {
    router.withLock { $0 }?.closeStreams()
    server.stop()
  }
}
