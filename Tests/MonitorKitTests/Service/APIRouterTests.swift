import Foundation
import Reports
import TestSupport
import Testing

@testable import MonitorKit

/// The router without a server: the token and loopback rules, methods, paths and query values.
@Suite("API router")
struct APIRouterTests {
  let configuration = MonitorConfiguration(
    catalogPath: "/c.bmcat", databasePath: "/nonexistent/plays.sqlite", channels: [])

  func router(token: String? = nil) -> APIRouter {
    APIRouter(readings: FixedReadings(), configuration: configuration, token: token, log: nil)
  }

  @Test("a loopback client needs no token; another host needs `Authorization: Bearer TOKEN`, compared in full")
  func tokenRules() {
    let router = router(token: "s3cret-token")
    #expect(router.respond(to: HTTPRequest(method: "GET", path: "/healthz", fromLoopback: true)).status == 503)
    let remote = HTTPRequest(method: "GET", path: "/api/v1/channels", fromLoopback: false)
    let refused = router.respond(to: remote)
    #expect(refused.status == 401)
    #expect(refused.headers.contains { $0.0 == "WWW-Authenticate" && $0.1 == "Bearer" })
    #expect(refused.bodyText.contains("Authorization: Bearer TOKEN"), "\(refused.bodyText)")
    for wrong in ["Bearer s3cret-toke", "Bearer s3cret-token2", "Basic s3cret-token", "s3cret-token", "Bearer", ""] {
      var request = remote
      request.authorization = wrong
      #expect(router.respond(to: request).status == 401, "\(wrong)")
    }
    var request = remote
    request.authorization = "Bearer s3cret-token"
    #expect(router.respond(to: request).status == 200)
    request.authorization = "bearer s3cret-token"
    #expect(router.respond(to: request).status == 200, "the scheme in any case")
  }

  @Test("a loopback client naming another machine in Host (DNS rebinding, a proxy passing it) needs the token")
  func foreignHostOnLoopback() throws {
    let rebound = HTTPRequest(method: "GET", path: "/api/v1/channels", host: "attacker.example:8750")
    let refused = router().respond(to: rebound)
    #expect(refused.status == 403, "\(refused.bodyText)")
    #expect(try Self.error(refused).contains("DNS rebinding"), "\(refused.bodyText)")
    #expect(router().respond(to: HTTPRequest(method: "GET", path: "/", host: "attacker.example")).status == 403)
    for host in ["127.0.0.1:8750", "localhost:8750", "[::1]:8750"] {
      let local = HTTPRequest(method: "GET", path: "/api/v1/channels", host: host)
      #expect(router().respond(to: local).status == 200, "\(host)")
    }
    // With a token, such a request is another host's: the token, or the login page.
    #expect(router(token: "s3cret").respond(to: rebound).status == 401)
    var withToken = rebound
    withToken.authorization = "Bearer s3cret"
    #expect(router(token: "s3cret").respond(to: withToken).status == 200)
    let page = router(token: "s3cret").respond(to: HTTPRequest(method: "GET", path: "/", host: "monitor.example.org"))
    #expect(page.status == 200 && page.bodyText.contains("id=\"login-token\""), "behind a proxy: the login page")
  }

  @Test("tokens are equal only when every byte and the length are")
  func constantTimeEqual() {
    #expect(APIRouter.constantTimeEqual("abc", "abc"))
    #expect(!APIRouter.constantTimeEqual("abc", "abd"))
    #expect(!APIRouter.constantTimeEqual("abc", "abcd"))
    #expect(!APIRouter.constantTimeEqual("", "a"))
    #expect(!APIRouter.constantTimeEqual(String(repeating: "a", count: 256), ""), "a length difference of 256")
  }

  @Test("anything but GET and HEAD is 405 with Allow; every answer is JSON with an error naming the fix")
  func methods() throws {
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "get", "X\u{0}"] {
      let response = router().respond(to: HTTPRequest(method: method, path: "/api/v1/channels"))
      #expect(response.status == 405, "\(method)")
      #expect(response.headers.contains { $0.0 == "Allow" })
      #expect(try Self.error(response).contains("read-only"))
    }
    #expect(router().respond(to: HTTPRequest(method: "HEAD", path: "/api/v1/channels")).status == 200)
  }

  @Test(
    "bad paths and query values get 4xx with a message naming them",
    arguments: [
      ("/dashboard/missing.js", [], 404, "no such path"),  // "/" is the dashboard
      ("/api/v2/channels", [], 404, "/api/v1/"),
      ("/api/v1/channels/", [], 404, "no such path"),
      ("/api/v1/channels", [("x", "1")], 400, "unknown query parameter `x`"),
      ("/api/v1/plays", [("limit", "0")], 400, "limit=0"),
      ("/api/v1/plays", [("limit", "1001")], 400, "1 to 1000"),
      ("/api/v1/plays", [("limit", "ten")], 400, "limit=ten"),
      ("/api/v1/plays", [("limit", "1"), ("limit", "2")], 400, "given twice"),
      ("/api/v1/plays", [("channel", "fm\0x")], 400, "`channel` holds a NUL byte (%00)"),
      ("/api/v1/reports/plays.csv", [("channel", "fm\0x")], 400, "`channel` holds a NUL byte"),
      ("/api/v1/plays", [("from", "yesterday")], 400, "ISO 8601"),
      ("/api/v1/events", [("to", "2026-12-01")], 400, "ISO 8601"),
      ("/api/v1/events", [("from", "2026-12-02T00:00:00Z"), ("to", "2026-12-01T00:00:00Z")], 400, "not after"),
      ("/api/v1/plays", [("cursor", "abc")], 400, "cursor=abc"),
      ("/api/v1/plays", [("cursor", "1_2_3")], 400, "nextCursor"),
      ("/api/v1/plays", [("sort", "asc")], 400, "takes from, to, channel, limit, cursor"),
      ("/api/v1/reports/nothing.csv", [], 404, "no report `nothing`"),
      ("/api/v1/reports/soundexchange.csv", [], 404, "report soundexchange"),
      ("/api/v1/reports/plays.csv", [("db", "/etc/passwd")], 400, "unknown query parameter `db`"),
      ("/api/v1/reports/plays.csv", [("out", "/tmp/x")], 400, "unknown query parameter `out`"),
      ("/api/v1/reports/plays.csv", [("db=/etc/passwd", "")], 400, "unknown query parameter"),
      ("/api/v1/reports/plays.csv", [("from", "someday")], 400, "from=someday"),
      ("/api/v1/reports/plays.csv", [("channel", "fm1"), ("channel", "fm2")], 400, "`channel` is given twice"),
      ("/api/v1/reports/plays.csv", [("group", "day")], 400, "group is for the airplay and quota report"),
      ("/api/v1/reports/airplay.csv", [("by-channel", "maybe")], 400, "by-channel=true"),
      ("/api/v1/reports/airplay.csv", [("group", "year")], 400, "day, week or month"),
      ("/api/v1/reports/plays.csv", [("tz", "Mars/Base")], 400, "unknown time zone"),
      ("/api/v1/reports/plays.csv", [("from", "9513-11-29")], 400, "from=9513-11-29: give a time in the years 1900"),
      ("/api/v1/metrics", [], 404, "no such path"),
      ("/metrics", [("name", "x")], 400, "/metrics takes no query parameters"),
    ] as [(String, [(String, String)], Int, String)])
  func badRequests(path: String, query: [(String, String)], status: Int, message: String) throws {
    let request = HTTPRequest(method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) })
    let response = router().respond(to: request)
    #expect(response.status == status, "\(path) \(query): \(response.bodyText)")
    #expect(try Self.error(response).contains(message), "\(response.bodyText)")
  }

  @Test("a play log that cannot be opened answers 503 naming the file, not a crash")
  func missingPlayLog() throws {
    let response = router().respond(to: HTTPRequest(method: "GET", path: "/api/v1/plays"))
    #expect(response.status == 503)
    #expect(try Self.error(response).contains("/nonexistent/plays.sqlite"))
  }

  @Test("the channels document: state, level null for digital silence, the item on air with its play id")
  func channels() throws {
    let response = router().respond(to: HTTPRequest(method: "GET", path: "/api/v1/channels"))
    #expect(response.status == 200)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any])
    let channels = try #require(object["channels"] as? [[String: Any]])
    #expect(channels.map { $0["state"] as? String } == ["listening", "silent"])
    #expect(channels[0]["levelDBFS"] as? Double == -12.5)
    #expect(channels[1]["levelDBFS"] is NSNull)
    let onAir = try #require((channels[0]["onAir"] as? [[String: Any]])?.first)
    #expect(onAir["playId"] as? Int == 7)
    #expect(onAir["title"] as? String == "Song \"One\"")
    #expect(onAir["start"] as? String == "2026-11-30T00:53:20.000Z")
    #expect(channels[0]["reconnects"] as? Int == 1)
    #expect((object["catalog"] as? [String: Any])?["items"] as? Int == 29)
  }

  @Test("/healthz names each channel without audio by its open silence or source_down alert, not a quiet second")
  func health() {
    let response = router().respond(to: HTTPRequest(method: "GET", path: "/healthz"))
    #expect(response.status == 503)
    #expect(
      response.bodyText.contains(
        "channel am\"2\\x: silence since 2026-11-30T00:53:00.000Z (below -50 dBFS for 15 s)"),
      "\(response.bodyText)")
    #expect(!response.bodyText.contains("fm1"))

    var readings = FixedReadings()
    readings.statuses[1].alerts = []  // silent for a moment, not yet for the silence alert's forSeconds
    readings.statuses[0].alerts = [ActiveAlert(kind: .lagging, since: Date(), detail: "behind by 12 s")]
    let quiet = APIRouter(readings: readings, configuration: configuration, token: nil, log: nil)
    #expect(quiet.respond(to: HTTPRequest(method: "GET", path: "/healthz")).bodyText == "ok\n")
    readings.statuses[0].input = .reconnecting
    readings.statuses[0].alerts = [ActiveAlert(kind: .sourceDown, since: Date(), detail: "no audio for 10 s")]
    readings.statuses[1].input = .ended
    let down = APIRouter(readings: readings, configuration: configuration, token: nil, log: nil)
    let answer = down.respond(to: HTTPRequest(method: "GET", path: "/healthz")).bodyText
    #expect(answer.contains("channel fm1: source_down since") && answer.contains("(no audio for 10 s)"), "\(answer)")
    #expect(answer.contains("channel am\"2\\x: no audio (stopped)"), "\(answer)")
  }

  @Test("/healthz names a play log that cannot be reached: since when, the writes waiting and spooled, the error")
  func healthOfPlayLog() {
    var readings = FixedReadings()
    readings.statuses.removeLast()  // the silent channel
    let router = { APIRouter(readings: readings, configuration: configuration, token: nil, log: nil) }
    #expect(router().respond(to: HTTPRequest(method: "GET", path: "/healthz")).bodyText == "ok\n")
    readings.overview.storeFailing = true
    readings.overview.storeBacklog = 5
    readings.overview.storeSpooled = 4
    readings.overview.playLogOutage = PlayLogOutage(
      cause: .unreachable, since: Date(timeIntervalSince1970: 1_796_000_000),
      reason: "PostgreSQL play log postgresql://bm@db:5432/plays: connection refused")
    let response = router().respond(to: HTTPRequest(method: "GET", path: "/healthz"))
    #expect(response.status == 503)
    #expect(
      response.bodyText
        == "unhealthy:\n- play log /nonexistent/plays.sqlite: unreachable since 2026-11-30T00:53:20.000Z, 5 writes "
        + "waiting, 4 of them in the spool: PostgreSQL play log postgresql://bm@db:5432/plays: connection refused\n",
      "\(response.bodyText)")
    readings.overview.playLogOutage?.cause = .unwritable
    #expect(
      router().respond(to: HTTPRequest(method: "GET", path: "/healthz")).bodyText.contains(": not writable since"))
  }

  @Test("a report's errors speak of query parameters and of reloading the monitor, not of command-line options")
  func reportErrorsInTheQuerysWords() throws {
    let folder = try TemporaryDirectory(prefix: "api-report-errors")
    let path = folder.file("plays.sqlite").path
    let store = try PlayLogStore(path: path)
    let start = Date(timeIntervalSince1970: 1_796_000_000)
    try store.record(
      PlayRecord(
        channel: "fm", itemKey: "song", title: "Song", start: start, end: start.addingTimeInterval(180),
        confidence: 0.5, detectedAt: start.addingTimeInterval(5), status: .closed))
    try store.close()
    let router = APIRouter(
      readings: FixedReadings(),
      configuration: MonitorConfiguration(catalogPath: "/c.bmcat", databasePath: path, channels: []), token: nil,
      log: nil)
    func error(_ kind: String, _ query: [(String, String)]) throws -> String {
      let response = router.respond(
        to: HTTPRequest(
          method: "GET", path: "/api/v1/reports/\(kind).csv", query: query.map { (name: $0.0, value: $0.1) }))
      #expect(response.status == 400, "\(response.bodyText)")
      return try Self.error(response)
    }
    let span = try error("plays", [("from", "2026-12-01"), ("to", "2026-11-01")])
    #expect(span.hasPrefix("to must be after from"), "\(span)")
    // A `+` typed into a URL arrives as a space: both times are read.
    let plusAsSpace = try error("plays", [("from", "2026-12-01T00:00:00 01:00"), ("to", "2026-11-01T00:00:00 01:00")])
    #expect(plusAsSpace.hasPrefix("to must be after from"), "\(plusAsSpace)")
    let quota = try error("quota", [])
    #expect(quota.contains("reload the monitor (SIGHUP") && !quota.contains("--config"), "\(quota)")
    #expect(
      ReportEndpoint.queryWording("pass --by-channel, --channel NAME or --tz ZONE")
        == "pass by-channel=true, channel=NAME or tz=ZONE")
  }

  @Test("plays on air at `from` are listed (the open one too), as are events that reach into it; point events by start")
  func playsOverlappingFrom() throws {
    let folder = try TemporaryDirectory(prefix: "api-overlap")
    let path = folder.file("plays.sqlite").path
    let store = try PlayLogStore(path: path)
    let hour = { (h: Double) in Date(timeIntervalSince1970: 1_796_000_000 + h * 3600) }
    for (index, status) in [PlayStatus.closed, .closed, .open].enumerated() {
      let start = hour(Double(index))
      // The open play's end is where its last progress left it, 10 s in.
      let end = start.addingTimeInterval(status == .open ? 10 : 180)
      try store.record(
        PlayRecord(
          channel: "fm", itemKey: "song-\(index)", title: "Song \(index)", start: start, end: end, confidence: 0.5,
          detectedAt: start.addingTimeInterval(5), status: status))
    }
    try store.recordEvent(channel: "fm", kind: .overrun, start: hour(0.5), detail: "3 blocks")
    try store.recordEvent(channel: "fm", kind: .gap, start: hour(1.5), end: hour(1.6), detail: "no audio")
    try store.close()
    let router = APIRouter(
      readings: FixedReadings(),
      configuration: MonitorConfiguration(catalogPath: "/c.bmcat", databasePath: path, channels: []), token: nil,
      log: nil)
    func titles(_ path: String, _ key: String, _ field: String, from: Date, to: Date? = nil) throws -> [String] {
      let query = [("from", ISO8601Millis.format(from))] + (to.map { [("to", ISO8601Millis.format($0))] } ?? [])
      let response = router.respond(
        to: HTTPRequest(method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) }))
      #expect(response.status == 200, "\(response.bodyText)")
      let object = try #require(try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any])
      return try #require(object[key] as? [[String: Any]]).compactMap { $0[field] as? String }
    }
    let plays = { (from: Date, to: Date?) in try titles("/api/v1/plays", "plays", "title", from: from, to: to) }
    #expect(try plays(hour(1).addingTimeInterval(60), nil) == ["Song 2", "Song 1"], "song 1 was on air at `from`")
    #expect(try plays(hour(1).addingTimeInterval(180), nil) == ["Song 2"], "song 1 ended at `from`")
    #expect(try plays(hour(2).addingTimeInterval(60), nil) == ["Song 2"], "on air now, its last progress before `from`")
    #expect(try plays(hour(0).addingTimeInterval(60), hour(1)) == ["Song 0"])
    let events = { (from: Date) in try titles("/api/v1/events", "events", "kind", from: from) }
    #expect(try events(hour(1.55)) == ["gap"], "a gap that reaches into the period")
    #expect(try events(hour(0.4)) == ["gap", "overrun"])
    #expect(try events(hour(0.6)) == ["gap"], "a point in time before `from` is not")
  }

  @Test(
    "/api/v1/alerts pages the play log's alerts newest first: those overlapping from–to, a channel's and the monitor's")
  func alerts() throws {
    let folder = try TemporaryDirectory(prefix: "api-alerts")
    let path = folder.file("plays.sqlite").path
    let store = try PlayLogStore(path: path)
    let hour = { (h: Double) in Date(timeIntervalSince1970: 1_796_000_000 + h * 3600) }
    try store.openAlert(channel: nil, kind: "play_log_unwritable", start: hour(0), detail: "disk full")
    try store.closeAlert(channel: nil, kind: "play_log_unwritable", start: hour(0), end: hour(0.5), detail: "disk full")
    try store.openAlert(channel: "fm1", kind: "silence", start: hour(1), detail: "below -50 dBFS")
    try store.closeAlert(channel: "fm1", kind: "silence", start: hour(1), end: hour(1.1), detail: "below -50 dBFS")
    try store.openAlert(channel: "fm2", kind: "source_down", start: hour(2), detail: "no audio for 10 s")
    try store.close()
    let router = APIRouter(
      readings: FixedReadings(),
      configuration: MonitorConfiguration(catalogPath: "/c.bmcat", databasePath: path, channels: []), token: nil,
      log: nil)
    func get(_ query: [(String, String)]) throws -> (alerts: [[String: Any]], next: String?) {
      let response = router.respond(
        to: HTTPRequest(method: "GET", path: "/api/v1/alerts", query: query.map { (name: $0.0, value: $0.1) }))
      #expect(response.status == 200, "\(query): \(response.bodyText)")
      let json = try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8))
      let schema = try OpenAPISchema(text: OpenAPIDocument.text)
      let problems = schema.mismatches(json, try #require(schema.responseSchema(path: "/api/v1/alerts")))
      #expect(problems.isEmpty, "\(problems)")
      let object = try #require(json as? [String: Any])
      return (try #require(object["alerts"] as? [[String: Any]]), object["nextCursor"] as? String)
    }
    let all = try get([])
    #expect(all.alerts.map { $0["kind"] as? String } == ["source_down", "silence", "play_log_unwritable"])
    #expect(all.alerts[0]["end"] is NSNull && all.alerts[0]["channel"] as? String == "fm2", "open: no end")
    #expect(all.alerts[1]["start"] as? String == "2026-11-30T01:53:20.000Z")
    #expect(all.alerts[1]["end"] as? String == "2026-11-30T01:59:20.000Z")
    #expect(all.alerts[2]["channel"] is NSNull, "the monitor's own")
    #expect(all.next == nil)

    var paged: [String] = []
    var cursor: String?
    repeat {
      let page = try get([("limit", "1")] + (cursor.map { [("cursor", $0)] } ?? []))
      paged += page.alerts.compactMap { $0["kind"] as? String }
      cursor = page.next
    } while cursor != nil && paged.count < 10
    #expect(paged == ["source_down", "silence", "play_log_unwritable"])

    // An alert that began before `from` and lasted into it is listed; the open one lasts until now.
    let overlapping = try get([("from", "2026-11-30T02:00:00Z")])
    #expect(overlapping.alerts.map { $0["kind"] as? String } == ["source_down"])
    let endedThen = try get([("from", "2026-11-30T01:59:20Z")])
    #expect(endedThen.alerts.map { $0["kind"] as? String } == ["source_down"], "silence ended as `from` begins")
    // A `+` typed into a URL arrives as a space.
    let plusAsSpace = try get([("from", "2026-11-30T02:59:19 01:00")])
    #expect(plusAsSpace.alerts.map { $0["kind"] as? String } == ["source_down", "silence"])
    let during = try get([("from", "2026-11-30T01:55:00Z"), ("to", "2026-11-30T02:00:00Z")])
    #expect(during.alerts.map { $0["kind"] as? String } == ["silence"])
    let fm1 = try get([("channel", "fm1")])
    #expect(fm1.alerts.map { $0["kind"] as? String } == ["silence", "play_log_unwritable"])
  }

  @Test("from another host, / is the login page; POST /login with the token sets an HttpOnly cookie, not the token")
  func login() throws {
    let router = router(token: "s3cret token;=")
    func remote(_ path: String, method: String = "GET", bearer: String? = nil, cookie: String? = nil) -> HTTPResponse {
      router.respond(
        to: HTTPRequest(
          method: method, path: path, authorization: bearer.map { "Bearer " + $0 }, cookie: cookie,
          fromLoopback: false))
    }
    let page = remote("/")
    #expect(page.status == 200 && page.contentType.hasPrefix("text/html"))
    #expect(page.bodyText.contains("id=\"login-token\"") && !page.bodyText.contains("id=\"tiles\""))
    #expect(remote("/dashboard/login.js").status == 200, "the page's static files hold no data")
    #expect(remote("/api/v1/channels").status == 401)
    #expect(remote("/api/v1/events/stream").status == 401)

    for wrong in [nil, "s3cret token", "s3cret token;=x", ""] as [String?] {
      let refused = remote("/login", method: "POST", bearer: wrong)
      #expect(refused.status == 401, "\(String(describing: wrong))")
      #expect(try Self.error(refused) == "wrong token", "no hint on what was wrong")
      #expect(!refused.headers.contains { $0.0 == "Set-Cookie" })
    }
    #expect(remote("/login", bearer: "s3cret token;=").status == 405)
    let loggedIn = remote("/login", method: "POST", bearer: "s3cret token;=")
    #expect(loggedIn.status == 204)
    let setCookie = try #require(loggedIn.headers.first { $0.0 == "Set-Cookie" }?.1)
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
      #expect(setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains(attribute))
    }
    let cookie = String(try #require(setCookie.split(separator: ";").first))
    #expect(!cookie.contains(" ") && !cookie.dropFirst("bm_session=".count).contains("="), "a valid cookie value")
    let tokenAsCookie = "bm_session=" + "s3cret token;=".utf8.map { String(format: "%02x", $0) }.joined()
    #expect(cookie.count == "bm_session=".count + 64 && cookie != tokenAsCookie, "a login's id, not the token")

    #expect(remote("/api/v1/channels", cookie: cookie).status == 200)
    #expect(remote("/api/v1/channels", cookie: "theme=dark; " + cookie + "; x=y").status == 200, "among others")
    #expect(remote("/", cookie: cookie).bodyText.contains("id=\"tiles\""), "the dashboard")
    #expect(remote("/api/v1/channels", bearer: "s3cret token;=").status == 200, "the header still works")
    for wrong in [tokenAsCookie, "bm_session=" + String(repeating: "0", count: 64), "bm_session=", "bm_session"] {
      #expect(remote("/api/v1/channels", cookie: wrong).status == 401, "\(wrong)")
    }
    let loopbackOnly = APIRouter(readings: FixedReadings(), configuration: configuration, token: nil, log: nil)
    #expect(
      loopbackOnly.respond(to: HTTPRequest(method: "POST", path: "/login", authorization: "Bearer x")).status == 404)
  }

  static func error(_ response: HTTPResponse) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any]
    return try #require(object?["error"] as? String, "not an error object: \(response.bodyText)")
  }
}
