import Foundation

/// The dashboard's login from other hosts: `POST /login` with `Authorization: Bearer TOKEN` sets this cookie, and
/// the browser then sends it with every request of the page, its API calls and its event stream, none of which can
/// carry a bearer header by themselves. The cookie holds the token (hex-encoded, so that any token is a valid cookie
/// value), so it lasts across restarts of the monitor and a new `http.token` ends every login; `HttpOnly` keeps it
/// from the page's scripts and `SameSite=Strict` from requests other sites start. Over plain HTTP it travels as
/// readable as the bearer header does: put TLS in front of the monitor for other networks.
///
/// Thread: any (it holds nothing).
enum SessionCookie {
  static let name = "bm_session"
  /// The dashboard's login: `POST` only.
  static let loginPath = "/login"
  /// How long a browser keeps the login, in seconds: 30 days, so that a wall display stays logged in through the
  /// restarts of its browser; a new token ends it at once.
  static let maxAgeSeconds = 30 * 86_400

  /// The `Set-Cookie` header's value that logs a browser in with `token`.
  static func setCookie(token: String) -> String {
    "\(name)=\(hex(token)); Path=/; Max-Age=\(maxAgeSeconds); HttpOnly; SameSite=Strict"
  }

  /// The token the cookie of a `Cookie` header holds, nil when it has none (or one that is not hex).
  static func token(cookieHeader: String?) -> String? {
    guard let cookieHeader else { return nil }
    for pair in cookieHeader.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
      return unhex(parts[1].trimmingCharacters(in: .whitespaces))
    }
    return nil
  }

  static func hex(_ text: String) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func unhex(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.count % 2 == 0 else { return nil }
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count / 2)
    var index = 0
    while index < bytes.count {
      guard let high = value(bytes[index]), let low = value(bytes[index + 1]) else { return nil }
      out.append(high << 4 | low)
      index += 2
    }
    return String(decoding: out, as: UTF8.self)
  }
}
