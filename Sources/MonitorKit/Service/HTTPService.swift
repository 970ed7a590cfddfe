import Common
import Foundation
import Matcher

/// `run`'s HTTP server, assembled from the `http` settings: the listening socket (opened before the monitor, so that
/// a port in use stops the start before anything runs), the router and libmicrohttpd's threads.
///
/// On the default address (no `http.listen`, no `--http`), a port in use is logged and the server stays off: a
/// second monitor on the same machine still runs. An address given on purpose that cannot be listened on stops
/// the start with a `ConfigurationError` naming the port and the fix.
///
/// Threads: the control thread.
final class HTTPService {
  private let server: HTTPServer
  private let token: String?
  private var router: APIRouter?

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
    self.router = router
    server.handler = { router.respond(to: $0) }
    try server.start()
    let address = server.address.isIPv6 ? "[\(server.address.host)]" : server.address.host
    log.line(
      "HTTP API on http://\(address):\(server.port)/ (/api/v1/openapi.json describes it; /metrics, /healthz)"
        + (server.address.isLoopback ? "" : "; clients need the bearer token, browsers log in at /"))
  }

  /// Ends the event streams, then stops the server.
  func stop() {
    router?.closeStreams()
    server.stop()
  }
}
