import Foundation

/// The dashboard's login from other hosts: `POST /login` with `Authorization: Bearer TOKEN` opens a login
/// (`LoginSessions`) and sets this cookie to its id; the browser then sends it with every request of the page, its
/// API calls and its event stream, none of which can carry a bearer header by themselves. `POST /logout` closes the
/// login and clears the cookie. The cookie holds a random id, never the token; `HttpOnly` keeps it from the page's
/// scripts and `SameSite=Strict` from requests other sites start. Over plain HTTP it travels as readable as the
/// bearer header does: put TLS in front of the monitor for other networks.
///
/// Thread: any (it holds nothing).
enum SessionCookie {
  static let name = "bm_session"
  /// The dashboard's login: `POST` only.
  static let loginPath = "/login"
  /// The dashboard's logout: `POST` only (a `GET` could be made by any link or prefetch).
  static let logoutPath = "/logout"
  /// How long a login lasts, in seconds: 30 days, so that a wall display stays logged in through the restarts of
  /// its browser.
  static let maxAgeSeconds = 30 * 86_400

  /// The `Set-Cookie` header's value that logs a browser in with the login `id`.
  static func setCookie(id: String) -> String {
    "\(name)=\(id); Path=/; Max-Age=\(maxAgeSeconds); HttpOnly; SameSite=Strict"
  }

  /// The `Set-Cookie` header's value that removes the cookie from the browser.
  static let clearCookie = "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"

  /// The login id the cookie of a `Cookie` header holds, nil when it has none.
  static func id(cookieHeader: String?) -> String? {
    guard let cookieHeader else { return nil }
    for pair in cookieHeader.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
      let id = parts[1].trimmingCharacters(in: .whitespaces)
      return id.isEmpty ? nil : id
    }
    return nil
  }
}
