import Common
import Foundation
import Matcher

/// The HTTP API and metrics server of `run`: the `http` section of the configuration. Every key is optional; the
/// server is on by default, on loopback only.
///
/// Threads: a value; any thread.
struct HTTPSettings: Codable, Sendable, Equatable {
  /// `ADDRESS:PORT` to listen on (`127.0.0.1:8750`, `0.0.0.0:8750`, `[::1]:8750`), or `off`. Default nil: the
  /// default address, `defaultListen`, where a port in use is logged and the server left off instead of refusing
  /// to start (a second monitor on the same machine still runs).
  var listen: String?
  /// The bearer token clients from other hosts must send (`Authorization: Bearer TOKEN`). Required, or `tokenFile`,
  /// when `listen` is not a loopback address.
  var token: String?
  /// A file holding the token (its first line), so that it is not in the configuration; relative to the
  /// configuration file's folder.
  var tokenFile: String?

  /// The shortest token taken: 16 characters of hex are 64 bits, far beyond the 7,200 guesses a day an address gets
  /// (`LoginThrottle`).
  static let minimumTokenCharacters = 16

  /// Loopback only, on a port no well-known service uses.
  static let defaultListen = "127.0.0.1:8750"

  /// The word that turns the server off, in `listen` and `--http`.
  static let off = "off"

  enum CodingKeys: String, CodingKey, CaseIterable {
    case listen
    case token
    case tokenFile
  }

  init(listen: String? = nil, token: String? = nil, tokenFile: String? = nil) {
    self.listen = listen
    self.token = token
    self.tokenFile = tokenFile
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    listen = try c.decodeIfPresent(String.self, forKey: .listen)
    token = try c.decodeIfPresent(String.self, forKey: .token)
    tokenFile = try c.decodeIfPresent(String.self, forKey: .tokenFile)
  }

  /// False for `listen: "off"`.
  var isEnabled: Bool { listen != Self.off }

  /// The token to require from other hosts: `token`, else the first line of `tokenFile`, else nil.
  /// - Throws: a `ConfigurationError` at `place(tokenFile)` when the file cannot be read or holds no token.
  func resolvedToken(place: (String) -> String) throws(ConfigurationError) -> String? {
    if let token { return token }
    guard let tokenFile else { return nil }
    if let problem = FileReadProblem.of(tokenFile), problem.isNotAFile {
      throw ConfigurationError(
        keyPath: place("http.tokenFile"), reason: "\(tokenFile) \(problem); name the file that holds the token")
    }
    guard let data = FileManager.default.contents(atPath: tokenFile) else {
      throw ConfigurationError(
        keyPath: place("http.tokenFile"),
        reason: "cannot read \(tokenFile); create it with the token on its first line (such as `openssl rand -hex "
          + "32 > \(tokenFile)`) and let the user running broadcast-monitor read it")
    }
    let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
    let token = line.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    guard !token.isEmpty else {
      throw ConfigurationError(
        keyPath: place("http.tokenFile"), reason: "\(tokenFile) holds no token; write the token on its first line")
    }
    return token
  }

  /// Checks the listen address and the token: a listen address other than loopback needs a token.
  func validate(origin: ConfigurationOrigin) throws(ConfigurationError) {
    guard isEnabled else { return }
    let text = listen ?? Self.defaultListen
    let address: ListenAddress
    do { address = try ListenAddress(parsing: text) } catch {
      throw ConfigurationError(keyPath: origin.place(of: "http.listen"), reason: error.description)
    }
    if let token, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
      throw ConfigurationError(
        keyPath: origin.place(of: "http.token"),
        reason: "is empty or holds spaces; use a long random word, such as the output of `openssl rand -hex 32`")
    }
    if self.token != nil && tokenFile != nil {
      throw ConfigurationError(
        keyPath: origin.place(of: "http.tokenFile"),
        reason: "is given with http.token; keep one of them (tokenFile keeps the token out of the configuration)")
    }
    let token = try resolvedToken(place: origin.place(of:))
    if let token, token.count < Self.minimumTokenCharacters {
      throw ConfigurationError(
        keyPath: origin.place(of: tokenFile == nil ? "http.token" : "http.tokenFile"),
        reason: "the token has \(token.count) characters; use at least \(Self.minimumTokenCharacters), such as the "
          + "output of `openssl rand -hex 32` (a short token is guessed)")
    }
    if !address.isLoopback && token == nil {
      throw ConfigurationError(
        keyPath: origin.place(of: "http.listen"),
        reason: "\(text) is reachable from other hosts, and there is no token: anyone could read the API. Set "
          + "http.token or http.tokenFile (clients then send `Authorization: Bearer TOKEN`), or listen on "
          + "127.0.0.1")
    }
  }
}
