import Foundation
import TestSupport
import Testing

@testable import MonitorKit

/// The HTTP API of a real `broadcast-monitor run` on file channels: every endpoint, checked against the OpenAPI
/// document; hostile requests; the token and loopback rules; a port in use.
@Suite(
  "HTTP API of run", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct HTTPServiceTests {
  let folder: TemporaryDirectory
  var catalog: URL { folder.file("music.bmcat") }
  var db: String { folder.file("plays.sqlite").path }

  init() throws {
    folder = try TemporaryDirectory(prefix: "http-api")
    try CLI.makeCatalog(at: catalog)
  }

  var channelArguments: [String] {
    [
      "--catalog", catalog.path, "--db", db, "--channel", "a=file:" + Fixtures.music("catalog-a.ogg").path,
      "--channel", "b=file:" + Fixtures.music("catalog-b.ogg").path,
    ]
  }

  @Test("every endpoint of a running monitor answers, and its JSON follows the OpenAPI document it serves")
  func endpoints() throws {
    let monitor = try RunningMonitor(channelArguments, folder: folder)
    let openAPI = try monitor.get("/api/v1/openapi.json")
    #expect(openAPI.status == 200 && openAPI.headers["content-type"] == "application/json")
    let schema = try OpenAPISchema(text: openAPI.body)
    func check(_ response: HTTPTestClient.Response, _ path: String) throws {
      #expect(response.status == 200, "\(path): \(response.body)")
      let json = try JSONSerialization.jsonObject(with: Data(response.body.utf8))
      let responseSchema = try #require(schema.responseSchema(path: path), "no schema for \(path)")
      let problems = schema.mismatches(json, responseSchema)
      #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
    }

    // The stream: both plays start, and the channels come every second.
    let stream = try HTTPTestClient.stream("/api/v1/events/stream", port: monitor.port) { text in
      text.components(separatedBy: "event: play_started").count == 3
    }
    #expect(stream.hasPrefix("HTTP/1.1 200"), "\(stream.prefix(300))")
    #expect(stream.contains("content-type: text/event-stream") || stream.contains("Content-Type: text/event-stream"))
    #expect(stream.contains("event: channels\nid: "), "\(stream.prefix(600))")
    #expect(stream.contains("data: {\"generatedAt\""), "\(stream.prefix(600))")
    let started = stream.components(separatedBy: "event: play_started\n").dropFirst().map {
      $0.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } ?? ""
    }
    let titles = try started.map { line -> String in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["event"] as? String == "play_started" && object["play_id"] is NSNumber, "\(line)")
      return object["title"] as? String ?? ""
    }
    #expect(Set(titles) == ["Armygeddon", "Chaos God"], "\(stream)")

    // A channel's status follows its play events within a pump.
    var channels = try monitor.get("/api/v1/channels")
    var onAir: [String] = []
    let deadline = Date().addingTimeInterval(10)
    repeat {
      channels = try monitor.get("/api/v1/channels")
      let list = try #require(try channels.json()["channels"] as? [[String: Any]])
      #expect(list.map { $0["name"] as? String } == ["a", "b"])
      onAir = list.compactMap { ($0["onAir"] as? [[String: Any]])?.first?["title"] as? String }
    } while onAir.count < 2 && Date() < deadline
    try check(channels, "/api/v1/channels")
    #expect(onAir == ["Armygeddon", "Chaos God"], "\(channels.body)")

    // The play log's writer stores a play after its event went out: wait for both rows before paging.
    try Wait.until(seconds: 30) {
      try (monitor.get("/api/v1/plays").json()["plays"] as? [[String: Any]])?.count == 2
    }
    let first = try monitor.get("/api/v1/plays?limit=1")
    try check(first, "/api/v1/plays")
    let cursor = try #require(try first.json()["nextCursor"] as? String, "\(first.body)")
    let second = try monitor.get("/api/v1/plays?limit=1&cursor=\(cursor)")
    try check(second, "/api/v1/plays")
    #expect(try second.json()["nextCursor"] is NSNull, "two plays, two pages: \(second.body)")
    let paged = try [first, second].flatMap { try $0.json()["plays"] as? [[String: Any]] ?? [] }
    #expect(Set(paged.compactMap { $0["title"] as? String }) == ["Armygeddon", "Chaos God"])
    let onlyB = try monitor.get("/api/v1/plays?channel=b&from=2000-01-01T00:00:00Z")
    #expect(try (onlyB.json()["plays"] as? [[String: Any]])?.map { $0["channel"] as? String } == ["b"])
    let held = try monitor.get("/api/v1/plays?channel=b%00x&from=2000-01-01T00:00:00Z")
    #expect(held.status == 400 && held.body.contains("`channel` holds a NUL byte"), "not read as channel b: \(held)")

    let events = try monitor.get("/api/v1/events")
    try check(events, "/api/v1/events")
    #expect(events.body.contains("\"kind\":\"restart\""), "\(events.body)")
    let alerts = try monitor.get("/api/v1/alerts?from=2000-01-01T00:00:00Z&limit=10")
    try check(alerts, "/api/v1/alerts")

    let report = try monitor.get("/api/v1/reports/plays.csv?tz=UTC")
    #expect(report.status == 200 && report.headers["content-type"] == "text/csv; charset=utf-8", "\(report.body)")
    let command = try CLI.run(["report", "plays", "--db", db, "--tz", "UTC"])
    #expect(report.body.split(separator: "\r\n").first == command.stdout.split(separator: "\r\n").first)
    #expect(report.body.split(separator: "\r\n").count == command.stdout.split(separator: "\r\n").count)
    let airplay = try monitor.get("/api/v1/reports/airplay.csv?tz=UTC&by-channel=true&group=day")
    #expect(airplay.status == 200 && airplay.body.hasPrefix("period_start,period_end,channel,"), "\(airplay.body)")

    let metrics = try monitor.get("/metrics")
    #expect(metrics.status == 200)
    #expect(metrics.body.contains("broadcast_monitor_plays_total{channel=\"a\"} 1\n"), "\(metrics.body)")
    try MetricsDocumentTests.checkWithPromtool(metrics.body)

    let health = try monitor.get("/healthz")
    #expect(health.status == 200 && health.body == "ok\n", "\(health.body)")

    #expect(monitor.stop() == 0, "\(monitor.output)")
    #expect(monitor.output.hasSuffix("stopped\n"))
  }

  @Test("hostile requests get a 4xx or a closed connection, never a crash, and the server goes on answering")
  func hostileRequests() throws {
    let monitor = try RunningMonitor(channelArguments, folder: folder)
    let longPath = "/" + String(repeating: "a", count: 100_000)
    // Each with the answers it may get besides a closed connection: a 4xx, but 505 for an unknown HTTP version, and
    // 200 where the request is odd but answerable (a loopback client needs no token, whatever it sends).
    let requests: [([UInt8], ClosedRange<Int>)] = [
      (Array("GARBAGE\r\n\r\n".utf8), 400...499),
      (Array("GET\r\n\r\n".utf8), 400...499),
      (Array("GET /api/v1/channels HTTP/9.9\r\n\r\n".utf8), 400...505),
      (Array("GET /api/v1/plays?limit=%zz&cursor=%00 HTTP/1.0\r\n\r\n".utf8), 400...499),
      (Array("GET /api/v1/%00channels HTTP/1.0\r\n\r\n".utf8), 400...499),
      (Array("GET /api/v1/plays?limit=99999999999999999999999 HTTP/1.0\r\n\r\n".utf8), 400...499),
      (Array("GET /api/v1/plays?from=2026-02-30T00:00:00Z HTTP/1.0\r\n\r\n".utf8), 400...499),
      (Array("GET /api/v1/reports/..%2f..%2fetc%2fpasswd.csv HTTP/1.0\r\n\r\n".utf8), 400...499),
      (Array("GET \(longPath) HTTP/1.0\r\n\r\n".utf8), 400...499),
      (Array("GET /healthz HTTP/1.0\r\nX: \(String(repeating: "b", count: 200_000))\r\n\r\n".utf8), 400...499),
      (Array("POST /api/v1/channels HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello".utf8), 400...499),
      (Array("GET /api/v1/channels HTTP/1.0\r\nAuthorization: Bearer \u{0}\u{7f}\r\n\r\n".utf8), 200...499),
      ([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a], 400...499),
      (Array("GET /api/v1/plays?\u{e9}=\u{fffd} HTTP/1.0\r\n\r\n".utf8), 400...499),
    ]
    for (request, allowed) in requests {
      let answer = try? HTTPTestClient.raw(request, port: monitor.port)
      if let answer {
        #expect(allowed.contains(answer.status), "\(String(decoding: request.prefix(80), as: UTF8.self)): \(answer)")
      }
      #expect(monitor.process.isRunning, "\(monitor.output)")
    }
    #expect(try monitor.get("/api/v1/channels").status == 200)
    #expect(monitor.stop() == 0, "\(monitor.output)")
  }

  @Test("an HTTP/1.1 connection stays open for the client's next request; one with a body is answered and closed")
  func keepAlive() throws {
    let monitor = try RunningMonitor(channelArguments, folder: folder)
    let fd = try HTTPTestClient.connect(port: monitor.port)
    defer { close(fd) }
    for path in ["/healthz", "/api/v1/channels", "/metrics"] {
      let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
      #expect(send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count, "\(path): the connection is open")
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      var response: HTTPTestClient.Response?
      while response == nil {
        let n = recv(fd, &buffer, buffer.count, 0)
        try #require(n > 0, "\(path): the server closed the connection")
        bytes += buffer[0..<n]
        if let parsed = try? HTTPTestClient.parse(bytes),
          let length = parsed.headers["content-length"].flatMap(Int.init),
          parsed.body.utf8.count >= length
        {
          response = parsed
        }
      }
      #expect(response?.status == 200 || path == "/healthz", "\(path): \(String(describing: response))")
      #expect(response?.headers["connection"]?.lowercased() != "close", "\(path)")
    }
    let post = try HTTPTestClient.raw(
      Array("POST /api/v1/channels HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello".utf8),
      port: monitor.port)
    #expect(post.status == 405, "answered, and the connection closed (raw reads to the end): \(post)")
    #expect(monitor.stop() == 0)
  }

  @Test("a listen address other than loopback without a token refuses to start (78), naming http.listen and the fix")
  func nonLoopbackNeedsToken() throws {
    for arguments in [["--http", "0.0.0.0:0"], ["--http", "[::]:0"]] {
      let result = try CLI.run(["run", "--log"] + arguments + channelArguments)
      #expect(result.status == 78, "\(result)")
      for part in ["--http", "reachable from other hosts", "http.token", "127.0.0.1"] {
        #expect(result.stderr.contains(part), "\(part) in \(result.stderr)")
      }
    }
    let config = folder.file("monitor.json5")
    try "{http: {listen: \"0.0.0.0:8750\"}}".write(to: config, atomically: true, encoding: .utf8)
    let result = try CLI.run(["run", "--log", "--config", config.path] + channelArguments)
    #expect(result.status == 78 && result.stderr.contains("monitor.json5: http.listen"), "\(result)")
  }

  @Test("with a token, another host sends the token or the login's cookie (till its logout); 5 wrong tokens: 429")
  func tokenFromOtherHosts() throws {
    let address = try #require(RunningMonitor.nonLoopbackAddress, "this machine has no address but loopback")
    let tokenFile = folder.file("token")
    try "0123456789abcdef\n".write(to: tokenFile, atomically: true, encoding: .utf8)
    let config = folder.file("monitor.json5")
    try "{http: {listen: \"0.0.0.0:0\", tokenFile: \"token\"}}".write(to: config, atomically: true, encoding: .utf8)
    let monitor = try RunningMonitor(["--config", config.path] + channelArguments, folder: folder)
    #expect(monitor.output.contains("clients need the bearer token"))
    let remote = { (headers: [String: String]) in
      try HTTPTestClient.request("GET", "/api/v1/channels", headers: headers, host: address, port: monitor.port)
    }
    #expect(try remote([:]).status == 401)
    #expect(try remote(["Authorization": "Bearer 0123456789abcdeX"]).status == 401)
    #expect(try remote(["Authorization": "Bearer 0123456789abcdef"]).status == 200)
    #expect(try monitor.get("/api/v1/channels").status == 200, "loopback needs no token")

    // A browser: the login page, the token posted as fetch() posts it (Content-Length: 0), then the cookie.
    let page = try HTTPTestClient.request("GET", "/", host: address, port: monitor.port)
    #expect(page.status == 200 && page.body.contains("id=\"login-token\""), "\(page)")
    let post = { (token: String) in
      try HTTPTestClient.raw(
        Array(
          ("POST /login HTTP/1.1\r\nHost: \(address)\r\nAuthorization: Bearer \(token)\r\nContent-Length: 0\r\n"
            + "Connection: close\r\n\r\n").utf8), host: address, port: monitor.port)
    }
    let wrong = try post("0123456789abcdeX")
    #expect(wrong.status == 401 && wrong.headers["set-cookie"] == nil, "\(wrong)")
    let login = try post("0123456789abcdef")
    #expect(login.status == 204, "\(login)")
    let setCookie = try #require(login.headers["set-cookie"], "\(login)")
    #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
    let cookie = String(try #require(setCookie.split(separator: ";").first))
    #expect(try remote(["Cookie": cookie]).status == 200)
    let dashboard = try HTTPTestClient.request(
      "GET", "/", headers: ["Cookie": cookie], host: address, port: monitor.port)
    #expect(dashboard.body.contains("id=\"tiles\""), "the dashboard itself once logged in")
    let stream = try HTTPTestClient.stream(
      "/api/v1/events/stream", host: address, port: monitor.port, headers: ["Cookie": cookie]
    ) { $0.contains("event: channels\n") }
    #expect(stream.hasPrefix("HTTP/1.1 200") && stream.contains("event: channels\n"), "\(stream.prefix(300))")

    // The logout, as the page's form posts it: the login is over, its cookie worth nothing.
    let logout = try HTTPTestClient.raw(
      Array(
        ("POST /logout HTTP/1.1\r\nHost: \(address)\r\nCookie: \(cookie)\r\n"
          + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").utf8),
      host: address, port: monitor.port)
    #expect(logout.status == 303 && logout.headers["set-cookie"]?.contains("Max-Age=0") == true, "\(logout)")
    #expect(try remote(["Cookie": cookie]).status == 401, "the login is over")
    // Wrong tokens from this address: after 5, every try with a token is 429, the right one too; not loopback's.
    for _ in 0..<LoginThrottle.maxFailures { #expect(try post("0123456789abcdeX").status == 401) }
    let held = try remote(["Authorization": "Bearer 0123456789abcdef"])
    #expect(held.status == 429 && held.headers["retry-after"].flatMap { Int($0) } ?? 0 > 0, "\(held)")
    #expect(try monitor.get("/api/v1/channels").status == 200, "loopback is another address")
    #expect(monitor.stop() == 0)
  }

  @Test("SIGHUP rotates the token (the old one and its logins refused from then on); the reports take the new rules")
  func reloadRotatesTheTokenAndTheReports() throws {
    let address = try #require(RunningMonitor.nonLoopbackAddress, "this machine has no address but loopback")
    let tokenFile = folder.file("token")
    try "old-token-0123456789\n".write(to: tokenFile, atomically: true, encoding: .utf8)
    let config = folder.file("monitor.json5")
    try "{http: {listen: \"0.0.0.0:0\", tokenFile: \"token\"}}".write(to: config, atomically: true, encoding: .utf8)
    let monitor = try RunningMonitor(["--config", config.path] + channelArguments, folder: folder)
    let remote = { (headers: [String: String]) in
      try HTTPTestClient.request("GET", "/api/v1/channels", headers: headers, host: address, port: monitor.port)
    }
    #expect(try remote(["Authorization": "Bearer old-token-0123456789"]).status == 200)
    let login = try HTTPTestClient.raw(
      Array(
        ("POST /login HTTP/1.1\r\nHost: \(address)\r\nAuthorization: Bearer old-token-0123456789\r\n"
          + "Content-Length: 0\r\nConnection: close\r\n\r\n").utf8), host: address, port: monitor.port)
    let cookie = String(try #require(login.headers["set-cookie"]?.split(separator: ";").first, "\(login)"))
    #expect(try remote(["Cookie": cookie]).status == 200)
    #expect(try monitor.get("/api/v1/reports/quota.csv").status == 400, "no quota rules yet")

    try "new-token-9876543210\n".write(to: tokenFile, atomically: true, encoding: .utf8)
    try """
    {http: {listen: "0.0.0.0:0", tokenFile: "token"},
     reports: {quotaRules: [{name: "Q", attribute: "mapl", qualifyingValues: ["yes"], targetPercent: 35}]}}
    """.write(to: config, atomically: true, encoding: .utf8)
    monitor.process.send(SIGHUP)
    try monitor.waitForLog("SIGHUP: http token changed")
    #expect(monitor.output.contains("http.listen changed") == false, "the same listen address: no note")
    #expect(try remote(["Authorization": "Bearer old-token-0123456789"]).status == 401)
    #expect(try remote(["Authorization": "Bearer new-token-9876543210"]).status == 200)
    #expect(try remote(["Cookie": cookie]).status == 401, "the old token's login has ended")
    let quota = try monitor.get("/api/v1/reports/quota.csv")
    #expect(quota.status == 200 && quota.body.hasPrefix("channel,rule,"), "\(quota)")

    // A token file that cannot be read keeps the running token.
    try FileManager.default.removeItem(at: tokenFile)
    monitor.process.send(SIGHUP)
    try monitor.waitForLog("cannot read")
    #expect(try remote(["Authorization": "Bearer new-token-9876543210"]).status == 200)
    #expect(monitor.stop() == 0)
  }

  @Test("a host that holds its share of connections (slowloris) gets no more; loopback and the others still answer")
  func connectionsShared() throws {
    let address = try #require(RunningMonitor.nonLoopbackAddress, "this machine has no address but loopback")
    let config = folder.file("monitor.json5")
    try "{http: {listen: \"0.0.0.0:0\", token: \"0123456789abcdef\"}}".write(
      to: config, atomically: true, encoding: .utf8)
    let monitor = try RunningMonitor(["--config", config.path] + channelArguments, folder: folder)
    var held: [Int32] = []
    defer { for fd in held { close(fd) } }
    // Each connection sends half a request and waits, as a slowloris client does.
    for _ in 0..<ConnectionQuota.perAddress {
      let fd = try HTTPTestClient.connect(host: address, port: monitor.port, timeoutSeconds: 5)
      let start = Array("GET /api/v1/channels HTTP/1.1\r\nHost: x\r\n".utf8)
      _ = send(fd, start, start.count, Int32(MSG_NOSIGNAL))
      held.append(fd)
    }
    let request = {
      try HTTPTestClient.request(
        "GET", "/api/v1/channels", headers: ["Authorization": "Bearer 0123456789abcdef"], host: address,
        port: monitor.port)
    }
    #expect((try? request()) == nil, "the host's next connection is closed unanswered")
    #expect(try monitor.get("/api/v1/channels").status == 200, "loopback still answers")
    close(held.removeLast())
    #expect(Wait.until(seconds: 20) { (try? request())?.status == 200 }, "a closed connection frees a place")
    #expect(monitor.stop() == 0)
  }

  @Test("a port in use stops the start (78) naming the port and the fix; --http off starts without a server")
  func portInUse() throws {
    let holder = try ListeningSocket()
    let result = try CLI.run(["run", "--log", "--http", "127.0.0.1:\(holder.port)"] + channelArguments)
    #expect(result.status == 78, "\(result)")
    for part in ["HTTP port \(holder.port) on 127.0.0.1 is in use", "--http off", "http.listen"] {
      #expect(result.stderr.contains(part), "\(part) in \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: db), "nothing started: no play log")

    let monitor = try RunningMonitor(["--http", "off"] + channelArguments, folder: folder, waitForHTTP: false)
    try monitor.waitForLog("listening to")
    #expect(!monitor.output.contains("HTTP API"), "\(monitor.output)")
    #expect(monitor.stop() == 0)
  }
}
