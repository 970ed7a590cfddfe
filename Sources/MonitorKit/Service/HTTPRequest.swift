/// One request as the API's router sees it: the method, the path (percent-decoded, without the query), the query
/// parameters in the order given (decoded; a name may repeat), the `Host`, `Authorization` and `Cookie` headers, the
/// client's address and whether it is a loopback address. Built by `HTTPServer` from libmicrohttpd's parse, and by the tests
/// and the fuzz harness directly.
///
/// A value type: safe to pass between threads.
struct HTTPRequest: Sendable, Equatable {
  var method: String
  var path: String
  var query: [(name: String, value: String)] = []
  /// The `Host` header as sent (`127.0.0.1:8750`, `localhost`, `[::1]:8750`); nil without one (HTTP/1.0).
  var host: String?
  var authorization: String?
  var cookie: String?
  var fromLoopback = true
  /// The client's IP address, numeric (`192.0.2.7`, `2001:db8::7`), without the port; nil when not known.
  var clientAddress: String?

  static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
    a.method == b.method && a.path == b.path && a.query.map(\.name) == b.query.map(\.name)
      && a.query.map(\.value) == b.query.map(\.value) && a.host == b.host && a.authorization == b.authorization
      && a.cookie == b.cookie
      && a.fromLoopback == b.fromLoopback && a.clientAddress == b.clientAddress
  }

  /// The values of query parameter `name`, in order.
  func values(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
}
