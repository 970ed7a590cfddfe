import Foundation
import Testing

@testable import MonitorKit

/// The dashboard's login from other hosts: the limit on wrong tokens per address, and the logout.
@Suite("API router login")
struct APIRouterLoginTests {
  let clock = ManualClock()
  let router: APIRouter

  init() {
    router = APIRouter(
      readings: FixedReadings(),
      configuration: MonitorConfiguration(catalogPath: "/c.bmcat", databasePath: "/nonexistent.sqlite", channels: []),
      token: "s3cret", log: nil, now: clock.now)
  }

  func remote(
    _ path: String, method: String = "GET", bearer: String? = nil, cookie: String? = nil,
    address: String = "192.0.2.7"
  ) -> HTTPResponse {
    router.respond(
      to: HTTPRequest(
        method: method, path: path, authorization: bearer.map { "Bearer " + $0 }, cookie: cookie,
        fromLoopback: false, clientAddress: address))
  }

  /// The `bm_session=ID` of a login's `Set-Cookie`.
  func logIn(address: String = "192.0.2.7") throws -> String {
    let response = remote("/login", method: "POST", bearer: "s3cret", address: address)
    #expect(response.status == 204, "\(response.bodyText)")
    let setCookie = try #require(response.headers.first { $0.0 == "Set-Cookie" }?.1)
    return String(try #require(setCookie.split(separator: ";").first))
  }

  /// The statuses the OpenAPI document gives `method path`.
  static func documentedStatuses(_ method: String, _ path: String) throws -> Set<String> {
    let schema = try OpenAPISchema(text: OpenAPIDocument.text)
    let paths = schema.document["paths"] as? [String: Any]
    let operation = (paths?[path] as? [String: Any])?[method] as? [String: Any]
    return Set(((operation?["responses"] as? [String: Any]) ?? [:]).keys)
  }

  @Test("after 5 wrong tokens in a minute an address gets 429 with Retry-After, even with the right token, till then")
  func throttled() throws {
    for _ in 0..<LoginThrottle.maxFailures {
      #expect(remote("/login", method: "POST", bearer: "guess").status == 401)
      clock.advance(seconds: 1)
    }
    let refused = remote("/login", method: "POST", bearer: "s3cret")
    #expect(refused.status == 429, "\(refused.bodyText)")
    #expect(refused.headers.contains { $0 == ("Retry-After", "55") }, "\(refused.headers)")
    #expect(try APIRouterTests.error(refused).contains("try again in 55 s"), "\(refused.bodyText)")
    #expect(!refused.headers.contains { $0.0 == "Set-Cookie" })
    #expect(remote("/api/v1/channels", bearer: "s3cret").status == 429, "a bearer token on any path is held back")
    #expect(remote("/").bodyText.contains("id=\"login-token\""), "the login page is still served")
    #expect(remote("/api/v1/channels").status == 401, "no token, nothing to hold back")
    _ = try logIn(address: "192.0.2.8")  // another address

    clock.advance(seconds: 55)
    let cookie = try logIn()
    #expect(remote("/api/v1/channels", cookie: cookie).status == 200)
    for status in ["204", "401", "429"] {
      #expect(try Self.documentedStatuses("post", "/login").contains(status), "\(status) of POST /login")
    }
  }

  @Test("wrong bearer tokens on the API count as wrong logins; a browser logged in by its cookie is not held back")
  func bearerCounts() throws {
    let cookie = try logIn()
    for _ in 0..<LoginThrottle.maxFailures {
      #expect(remote("/api/v1/channels", bearer: "guess").status == 401)
    }
    #expect(remote("/login", method: "POST", bearer: "s3cret").status == 429)
    #expect(remote("/api/v1/channels", cookie: cookie).status == 200, "its login is not a guess")
    clock.advance(seconds: LoginThrottle.windowSeconds)
    #expect(remote("/api/v1/channels", bearer: "s3cret").status == 200)
  }

  @Test("POST /logout ends the login and clears the cookie; the page shows the logout button only to a login")
  func logout() throws {
    let cookie = try logIn()
    let page = remote("/", cookie: cookie)
    #expect(page.status == 200 && page.bodyText.contains("id=\"tiles\""))
    #expect(page.bodyText.contains(#"<form id="logout" class="logout" method="post" action="logout">"#))
    #expect(!remote("/", bearer: "s3cret").bodyText.contains(#"action="logout">"#), "hidden for a bearer token")
    let loopback = router.respond(to: HTTPRequest(method: "GET", path: "/"))
    #expect(loopback.bodyText.contains(DashboardAssets.logoutFormHidden), "hidden on loopback")

    #expect(remote("/logout", cookie: cookie).status == 405)
    let loggedOut = remote("/logout", method: "POST", cookie: cookie)
    #expect(loggedOut.status == 303)
    #expect(loggedOut.headers.contains { $0 == ("Location", "./") })
    let cleared = try #require(loggedOut.headers.first { $0.0 == "Set-Cookie" }?.1)
    #expect(cleared.hasPrefix("bm_session=;") && cleared.contains("Max-Age=0"), "\(cleared)")
    #expect(
      remote("/api/v1/channels", cookie: cookie).status == 401, "the login is forgotten, the cookie worth nothing")
    #expect(remote("/", cookie: cookie).bodyText.contains("id=\"login-token\""))
    #expect(remote("/logout", method: "POST").status == 303, "without a login: nothing to end, the same answer")

    let loopbackOnly = APIRouter(
      readings: FixedReadings(), configuration: router.configuration, token: nil, log: nil)
    #expect(loopbackOnly.respond(to: HTTPRequest(method: "POST", path: "/logout")).status == 404)
    for status in ["303", "404"] {
      #expect(try Self.documentedStatuses("post", "/logout").contains(status), "\(status) of POST /logout")
    }
  }
}
