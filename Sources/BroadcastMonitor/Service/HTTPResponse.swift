/// What the router answers: a status, a content type and a body, either whole or an event stream that the server
/// reads piece by piece on the connection's own thread.
///
/// A value type (the stream is a reference that crosses to the connection's thread): safe to pass between threads.
struct HTTPResponse: Sendable {
  enum Body: Sendable {
    case bytes([UInt8])
    /// Server-Sent Events, read until the client goes away or the stream ends.
    case stream(EventStream)
  }

  var status: Int
  var contentType: String
  var body: Body
  /// Extra headers, such as `WWW-Authenticate` or `Allow`.
  var headers: [(String, String)] = []

  init(status: Int, contentType: String, body: Body, headers: [(String, String)] = []) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.headers = headers
  }

  static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json", body: .bytes(Array((value.text + "\n").utf8)))
  }

  static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8")
    -> HTTPResponse
  {
    HTTPResponse(status: status, contentType: contentType, body: .bytes(Array(text.utf8)))
  }

  /// `{"error": "what is wrong and the fix"}` with a 4xx or 5xx status.
  static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPResponse {
    var response = json(.object([("error", .string(message))]), status: status)
    response.headers = headers
    return response
  }

  /// The body as text, for tests (empty for a stream).
  var bodyText: String {
    guard case .bytes(let bytes) = body else { return "" }
    return String(decoding: bytes, as: UTF8.self)
  }
}
