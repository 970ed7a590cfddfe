import Foundation
import Reports
import Synchronization

/// Answers the API's requests: checks the credential (from other hosts than this one) and the method, then routes
/// by path. Read-only: every endpoint answers GET (and HEAD); anything else is 405, but the dashboard's login. A
/// path, query parameter or value that cannot be answered gets a 4xx with `{"error": ...}` naming the problem and
/// the fix.
///
/// From other hosts, with a token: a request needs `Authorization: Bearer TOKEN` or the login cookie
/// (`SessionCookie`), both compared in constant time. Without either, the dashboard's page (`/`) is the login page,
/// whose form posts the token to `POST /login`; the page's static files (no data in them) are served; everything
/// else is 401.
///
///     GET /api/v1/channels               every channel as the console sees it (`ChannelsDocument`)
///     GET /api/v1/plays, /api/v1/events  the play log's plays and events, newest first, paged
///     GET /api/v1/alerts                 the play log's alerts, newest first, paged
///     GET /api/v1/events/stream          the monitor's events as Server-Sent Events (`EventStream`)
///     GET /api/v1/reports/KIND.csv       the reports of `report KIND` (`ReportEndpoint`)
///     GET /api/v1/openapi.json           the description of all of it (`OpenAPIDocument`)
///     GET /metrics, /healthz             Prometheus' metrics (`MetricsDocument`), health (`HealthCheck`)
///     GET /, /dashboard/NAME             the dashboard's files (`DashboardAssets`)
///     POST /login                        the dashboard's login from other hosts (`SessionCookie`)
///
/// Threads: `respond` from any thread (the server's connection threads), at once; it reads `readings` (copies) and
/// opens its own read-only connection to the play log for each request that needs it.
final class APIRouter: Sendable {
  let readings: any MonitorReadings
  let configuration: MonitorConfiguration
  /// The bearer token clients from other hosts must send; nil when only loopback clients can connect.
  let token: String?
  /// Where the event streams' events come from; nil serves no stream.
  let log: MonitorLog?
  private let streams = Mutex<(next: Int, open: [Int: EventStream], closed: Bool)>((0, [:], false))

  init(readings: any MonitorReadings, configuration: MonitorConfiguration, token: String?, log: MonitorLog?) {
    self.readings = readings
    self.configuration = configuration
    self.token = token
    self.log = log
  }

  func respond(to request: HTTPRequest) -> HTTPResponse {
    if request.path == SessionCookie.loginPath { return login(request) }
    if !request.fromLoopback, let token, !Self.isAuthorized(request, token: token) {
      if request.method == "GET" || request.method == "HEAD" {
        if Self.pagePaths.contains(request.path), let page = DashboardAssets.asset(path: "/dashboard/login.html") {
          return HTTPResponse(status: 200, contentType: page.contentType, body: .bytes(page.body))
        }
        if let asset = DashboardAssets.asset(path: request.path) {
          return HTTPResponse(status: 200, contentType: asset.contentType, body: .bytes(asset.body))
        }
      }
      return .error(
        401,
        "this API needs `Authorization: Bearer TOKEN` from other hosts, or the dashboard's login at / (the token is "
          + "http.token in the monitor's configuration)", headers: [("WWW-Authenticate", "Bearer")])
    }
    guard request.method == "GET" || request.method == "HEAD" else {
      return .error(
        405, "\(request.method) is not allowed: this API is read-only; use GET", headers: [("Allow", "GET, HEAD")])
    }
    do {
      return try route(request)
    } catch {
      return .error(400, error.description)
    }
  }

  private func route(_ request: HTTPRequest) throws(APIQuery.Problem) -> HTTPResponse {
    let path = request.path
    switch path {
    case "/api/v1/channels":
      _ = try APIQuery(request.query, allowed: [], path: path)
      return .json(ChannelsDocument.make(readings))
    case "/api/v1/plays":
      return page(try APIQuery(request.query, allowed: Self.pageParameters, path: path).pageFilter(), plays: true)
    case "/api/v1/events":
      return page(try APIQuery(request.query, allowed: Self.pageParameters, path: path).pageFilter(), plays: false)
    case "/api/v1/alerts":
      return alertsPage(try APIQuery(request.query, allowed: Self.pageParameters, path: path).pageFilter())
    case "/api/v1/events/stream":
      _ = try APIQuery(request.query, allowed: [], path: path)
      return openStream()
    case "/api/v1/openapi.json":
      _ = try APIQuery(request.query, allowed: [], path: path)
      return .text(OpenAPIDocument.text, contentType: "application/json")
    case "/metrics":
      _ = try APIQuery(request.query, allowed: [], path: path)
      return .text(MetricsDocument.make(readings), contentType: MetricsDocument.contentType)
    case "/healthz":
      _ = try APIQuery(request.query, allowed: [], path: path)
      return HealthCheck.response(readings)
    default:
      let prefix = "/api/v1/reports/"
      if path.hasPrefix(prefix) && path.hasSuffix(".csv") && path.count > prefix.count + 4 {
        let kind = String(path.dropFirst(prefix.count).dropLast(4))
        return ReportEndpoint.response(kind: kind, query: request.query, configuration: configuration)
      }
      if let asset = DashboardAssets.asset(path: path) {
        return HTTPResponse(status: 200, contentType: asset.contentType, body: .bytes(asset.body))
      }
      return .error(
        404,
        "no such path \(Self.quoted(path)); the API is under /api/v1/ (GET /api/v1/openapi.json describes it), "
          + "and /metrics and /healthz; the dashboard is /")
    }
  }

  static let pageParameters = ["from", "to", "channel", "limit", "cursor"]

  /// A page of plays or events, from a read-only connection of its own (to the SQLite file or PostgreSQL).
  private func page(_ filter: PlayLogPage.Filter, plays: Bool) -> HTTPResponse {
    do {
      let reader = try openPages()
      defer { try? reader.close() }
      if plays {
        let (rows, next) = try reader.playsPage(filter)
        return .json(.object([("plays", .array(rows.map(Self.play))), ("nextCursor", Self.cursor(next))]))
      }
      let (rows, next) = try reader.eventsPage(filter)
      return .json(.object([("events", .array(rows.map(Self.event))), ("nextCursor", Self.cursor(next))]))
    } catch {
      return .error(503, "the play log cannot be read now: \(error)")
    }
  }

  private static func cursor(_ cursor: PlayLogPage.Cursor?) -> JSONValue {
    .optional(cursor) { .string(APIQuery.encodeCursor($0)) }
  }

  static func play(_ row: PlayLogPage.Play) -> JSONValue {
    .object([
      ("id", .integer(row.id)), ("channel", .string(row.channel)), ("title", .string(row.title)),
      ("artist", .string(row.artist)), ("kind", .string(row.kind)),
      ("isrc", row.isrc.isEmpty ? .null : .string(row.isrc)), ("start", .time(row.start)),
      ("end", row.status == PlayStatus.open.rawValue ? .null : .time(row.end)), ("status", .string(row.status)),
      ("offsetSeconds", .number(row.refOffsetSeconds)), ("speed", .number(row.speed)),
      ("confidence", .number(row.confidence)), ("identifiedAt", .optional(row.identifiedAt) { .time($0) }),
    ])
  }

  static func event(_ row: PlayLogPage.Event) -> JSONValue {
    .object([
      ("id", .integer(row.id)), ("channel", .optional(row.channel) { .string($0) }), ("kind", .string(row.kind)),
      ("start", .time(row.start)), ("end", .optional(row.end) { .time($0) }), ("detail", .string(row.detail)),
    ])
  }

  /// A page of alerts, from a read-only connection of its own.
  private func alertsPage(_ filter: PlayLogPage.Filter) -> HTTPResponse {
    do {
      let reader = try openPages()
      defer { try? reader.close() }
      let (rows, next) = try reader.alertsPage(filter)
      return .json(.object([("alerts", .array(rows.map(Self.alert))), ("nextCursor", Self.cursor(next))]))
    } catch {
      return .error(503, "the play log cannot be read now: \(error)")
    }
  }

  private func openPages() throws -> any PlayLogPages {
    try PlayLogLocation.openPages(configuration.databasePath, passwordFile: configuration.database.passwordFile)
  }

  static func alert(_ row: PlayLogPage.Alert) -> JSONValue {
    .object([
      ("id", .integer(row.id)), ("channel", .optional(row.alert.channel) { .string($0) }),
      ("kind", .string(row.alert.kind)), ("start", .time(row.alert.start)),
      ("end", .optional(row.alert.end) { .time($0) }), ("detail", .string(row.alert.detail)),
    ])
  }

  /// The paths of the dashboard's page, which is the login page for a client from another host without the token.
  static let pagePaths: Set<String> = ["/", "/index.html", "/dashboard/", "/dashboard/index.html"]

  /// True when `request` carries the token: as a bearer token or in the login cookie.
  static func isAuthorized(_ request: HTTPRequest, token: String) -> Bool {
    if let given = bearerToken(request.authorization), constantTimeEqual(given, token) { return true }
    if let given = SessionCookie.token(cookieHeader: request.cookie), constantTimeEqual(given, token) { return true }
    return false
  }

  /// `POST /login` with `Authorization: Bearer TOKEN`: 204 with the login cookie; a wrong or missing token is 401
  /// without a word on what was wrong with it.
  private func login(_ request: HTTPRequest) -> HTTPResponse {
    guard request.method == "POST" else {
      return .error(
        405, "\(request.method) is not allowed: POST the token to /login, as the dashboard's login page does",
        headers: [("Allow", "POST")])
    }
    guard let token else {
      return .error(404, "no login here: this HTTP server listens on loopback only and needs no token")
    }
    guard let given = Self.bearerToken(request.authorization), Self.constantTimeEqual(given, token) else {
      return .error(401, "wrong token", headers: [("WWW-Authenticate", "Bearer")])
    }
    return HTTPResponse(
      status: 204, contentType: "text/plain; charset=utf-8", body: .bytes([]),
      headers: [("Set-Cookie", SessionCookie.setCookie(token: token))])
  }

  /// A new event stream, subscribed to the log until the client leaves.
  private func openStream() -> HTTPResponse {
    guard let log else { return .error(503, "no event stream: the monitor is not running") }
    let readings = self.readings
    let number = streams.withLock { state -> Int? in
      guard !state.closed else { return nil }
      state.next += 1
      return state.next
    }
    guard let number else { return .error(503, "the monitor is stopping") }
    let subscription = Mutex<Int?>(nil)
    let stream = EventStream(
      channels: { ChannelsDocument.make(readings) },
      onClose: { [weak self] in
        if let id = subscription.withLock({ $0 }) { log.unsubscribe(id) }
        _ = self?.streams.withLock { $0.open.removeValue(forKey: number) }
      })
    subscription.withLock { $0 = log.subscribe { [weak stream] in stream?.enqueue($0) } }
    streams.withLock { $0.open[number] = stream }
    return HTTPResponse(
      status: 200, contentType: "text/event-stream; charset=utf-8", body: .stream(stream),
      headers: [("X-Accel-Buffering", "no")])
  }

  /// Ends every open event stream and refuses new ones: before the server stops. Any thread.
  func closeStreams() {
    let open = streams.withLock { state -> [EventStream] in
      state.closed = true
      return Array(state.open.values)
    }
    for stream in open { stream.close() }
  }

  /// Event streams open now.
  var openStreamCount: Int { streams.withLock { $0.open.count } }

  /// The token of `Bearer TOKEN` (the scheme in any case), nil for anything else.
  static func bearerToken(_ header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }

  /// Compares every byte whatever the first difference, so that the time taken does not tell how much of a
  /// guessed token was right.
  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
    for i in 0..<max(x.count, y.count) {
      difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
    }
    return difference == 0 && x.count == y.count
  }

  /// A path as an error message quotes it: at most 200 characters, controls escaped.
  private static func quoted(_ path: String) -> String {
    "`" + DisplayWidth.printable(String(path.prefix(200))) + (path.count > 200 ? "…" : "") + "`"
  }
}
