import Foundation
import Reports
import Synchronization

/// Answers the API's requests: checks the credential (from other hosts than this one) and the method, then routes
/// by path. Read-only: every endpoint answers GET (and HEAD); anything else is 405, but the dashboard's login and
/// logout. A path, query parameter or value that cannot be answered gets a 4xx with `{"error": ...}` naming the
/// problem and the fix.
///
/// From other hosts, with a token: a request needs `Authorization: Bearer TOKEN` (compared in constant time) or the
/// cookie of an open login (`SessionCookie`, `LoginSessions`). Without either, the dashboard's page (`/`) is the
/// login page, whose form posts the token to `POST /login`; the page's static files (no data in them) are served;
/// everything else is 401. Wrong tokens are limited per client address (`LoginThrottle`): past the limit, 429.
///
///     GET /api/v1/channels               every channel as the console sees it (`ChannelsDocument`)
///     GET /api/v1/plays, /api/v1/events  the play log's plays and events, newest first, paged
///     GET /api/v1/alerts                 the play log's alerts, newest first, paged
///     GET /api/v1/events/stream          the monitor's events as Server-Sent Events (`EventStream`)
///     GET /api/v1/reports/KIND.csv       the reports of `report KIND` (`ReportEndpoint`)
///     GET /api/v1/openapi.json           the description of all of it (`OpenAPIDocument`)
///     GET /metrics, /healthz             Prometheus' metrics (`MetricsDocument`), health (`HealthCheck`)
///     GET /, /dashboard/NAME             the dashboard's files (`DashboardAssets`)
///     POST /login, /logout               the dashboard's login from other hosts and its logout (`SessionCookie`)
///
/// Threads: `respond` from any thread (the server's connection threads), at once; it reads `readings` (copies) and
/// opens its own read-only connection to the play log for each request that needs it.
final class APIRouter: Sendable {
  let readings: any MonitorReadings
  /// The configuration and the token the requests are answered with; a reload replaces them (`update`).
  private let current: Mutex<(configuration: MonitorConfiguration, token: String?)>
  /// The configuration the reports and the play log's reader take.
  var configuration: MonitorConfiguration { current.withLock { $0.configuration } }
  /// The bearer token clients from other hosts must send; nil when only loopback clients can connect.
  var token: String? { current.withLock { $0.token } }
  /// Where the event streams' events come from; nil serves no stream.
  let log: MonitorLog?
  private let streams = Mutex<(next: Int, open: [Int: EventStream], closed: Bool)>((0, [:], false))
  /// The dashboard's open logins.
  let sessions: LoginSessions
  /// The wrong tokens of each client address.
  let throttle: LoginThrottle

  /// - Parameter now: the clock of the logins and of the limit on wrong tokens (the tests set it).
  init(
    readings: any MonitorReadings, configuration: MonitorConfiguration, token: String?, log: MonitorLog?,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.readings = readings
    current = Mutex((configuration, token))
    self.log = log
    sessions = LoginSessions(now: now)
    throttle = LoginThrottle(now: now)
  }

  /// Answers from now on with `configuration` (a reload's) and `token`. When the token changed, the logins opened
  /// with the old one end: their cookies are worth nothing from now on. Any thread.
  func update(configuration: MonitorConfiguration, token: String?) {
    let changed = current.withLock { current in
      defer { current = (configuration, token) }
      return current.token != token
    }
    if changed { sessions.closeAll() }
  }

  func respond(to request: HTTPRequest) -> HTTPResponse {
    if request.path == SessionCookie.loginPath { return login(request) }
    if request.path == SessionCookie.logoutPath { return logout(request) }
    let loggedIn = SessionCookie.id(cookieHeader: request.cookie).map(sessions.isOpen) ?? false
    // A loopback client that names another machine in `Host` is a page's request through DNS rebinding, or a
    // reverse proxy's that passes its clients' `Host`: it needs the token as another host does.
    let trusted = request.fromLoopback && HostHeader.namesThisMachine(request.host)
    if !trusted, !loggedIn {
      guard let token else { return Self.foreignHost(request) }
      if let refusal = checkBearer(request, token: token) { return refusal }
    }
    guard request.method == "GET" || request.method == "HEAD" else {
      return .error(
        405, "\(request.method) is not allowed: this API is read-only; use GET", headers: [("Allow", "GET, HEAD")])
    }
    if loggedIn, Self.pagePaths.contains(request.path) {
      // The page of a browser logged in by its cookie, with its logout button.
      return HTTPResponse(
        status: 200, contentType: DashboardAssets.pageWithLogout.contentType,
        body: .bytes(DashboardAssets.pageWithLogout.body))
    }
    do {
      return try route(request)
    } catch {
      return .error(400, error.description)
    }
  }

  /// Checks the bearer token of a request from another host without a login: nil when it is right; otherwise the
  /// answer, which for a page of the dashboard without a token is the login page or the file.
  private func checkBearer(_ request: HTTPRequest, token: String) -> HTTPResponse? {
    if let given = Self.bearerToken(request.authorization) {
      let client = LoginThrottle.clientKey(request.clientAddress)
      if let refusal = throttled(client) { return refusal }
      if Self.constantTimeEqual(given, token) {
        throttle.recordSuccess(client: client)
        return nil
      }
      throttle.recordFailure(client: client)
    } else if request.method == "GET" || request.method == "HEAD" {
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

  /// 403 for a request that does not name this machine in `Host`, on a server without a token.
  private static func foreignHost(_ request: HTTPRequest) -> HTTPResponse {
    .error(
      403,
      "Host `\(DisplayWidth.printable(request.host ?? ""))` does not name this machine: a client on this machine is "
        + "trusted without a token only when it names the monitor by an address, localhost or this machine's name "
        + "(a web page could otherwise read the API through DNS rebinding). Behind a reverse proxy, have it send the "
        + "monitor's address as Host (nginx does; Caddy: `header_up Host {upstream_hostport}`), or set http.token "
        + "(clients then log in)")
  }

  /// 429 with `Retry-After` when `client` gave too many wrong tokens lately; nil when it may try.
  private func throttled(_ client: String) -> HTTPResponse? {
    guard let seconds = throttle.retryAfterSeconds(client: client) else { return nil }
    return .error(
      429,
      "too many wrong tokens from this address (\(LoginThrottle.maxFailures) in \(Int(LoginThrottle.windowSeconds)) "
        + "s): try again in \(seconds) s", headers: [("Retry-After", "\(seconds)")])
  }

  private func route(_ request: HTTPRequest) throws(APIQuery.Problem) -> HTTPResponse {
    let path = request.path
    if let held = request.query.first(where: { $0.name.contains("\0") || $0.value.contains("\0") }) {
      throw APIQuery.Problem(
        description: "query parameter `\(DisplayWidth.printable(held.name))` holds a NUL byte (%00); remove it")
    }
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

  /// `POST /login` with `Authorization: Bearer TOKEN`: 204 with the cookie of a new login; a wrong or missing token
  /// is 401 without a word on what was wrong with it, and too many of them from the client's address 429.
  private func login(_ request: HTTPRequest) -> HTTPResponse {
    guard request.method == "POST" else {
      return .error(
        405, "\(request.method) is not allowed: POST the token to /login, as the dashboard's login page does",
        headers: [("Allow", "POST")])
    }
    guard let token else {
      return .error(404, "no login here: this HTTP server listens on loopback only and needs no token")
    }
    let client = LoginThrottle.clientKey(request.clientAddress)
    if let refusal = throttled(client) { return refusal }
    guard let given = Self.bearerToken(request.authorization), Self.constantTimeEqual(given, token) else {
      throttle.recordFailure(client: client)
      return .error(401, "wrong token", headers: [("WWW-Authenticate", "Bearer")])
    }
    throttle.recordSuccess(client: client)
    return HTTPResponse(
      status: 204, contentType: "text/plain; charset=utf-8", body: .bytes([]),
      headers: [("Set-Cookie", SessionCookie.setCookie(id: sessions.open()))])
  }

  /// `POST /logout`: closes the login of the request's cookie (if any), clears the cookie and sends the browser back
  /// to the page (`303 See Other` to `./`, relative, so that it works behind a proxy's path prefix too), which is
  /// then the login page.
  private func logout(_ request: HTTPRequest) -> HTTPResponse {
    guard request.method == "POST" else {
      return .error(
        405, "\(request.method) is not allowed: POST to /logout, as the dashboard's logout button does",
        headers: [("Allow", "POST")])
    }
    guard token != nil else {
      return .error(404, "no logout here: this HTTP server listens on loopback only and needs no login")
    }
    if let id = SessionCookie.id(cookieHeader: request.cookie) { sessions.close(id) }
    return HTTPResponse(
      status: 303, contentType: "text/plain; charset=utf-8", body: .bytes(Array("logged out\n".utf8)),
      headers: [("Set-Cookie", SessionCookie.clearCookie), ("Location", "./")])
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
