import Foundation

/// A minimal HTTP/1.0 client for the API's tests, on a plain socket: one request per connection, the answer read
/// until the server closes it (or, for an event stream, until a condition holds). Raw on purpose: the tests send
/// what a hostile client would (any method, any path bytes, any header).
///
/// Threads: any thread; each call has its own socket.
enum HTTPTestClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  struct Response {
    var status: Int
    var headers: [String: String]
    var body: String

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
      guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
        throw Failure(description: "not a JSON object: \(body)")
      }
      return object
    }
  }

  /// A connected socket to `host:port`, with send and receive timeouts.
  static func connect(host: String = "127.0.0.1", port: UInt16, timeoutSeconds: Int = 20) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, host, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw Failure(description: "connect \(host):\(port): \(reason)")
    }
    return fd
  }

  /// Sends `request` (raw bytes) on a new connection and reads the whole answer.
  static func raw(_ request: [UInt8], host: String = "127.0.0.1", port: UInt16) throws -> Response {
    let fd = try connect(host: host, port: port)
    defer { close(fd) }
    guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
      throw Failure(description: "send: \(String(cString: strerror(errno)))")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n < 0 { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
      if n == 0 { break }
      bytes += buffer[0..<n]
    }
    return try parse(bytes)
  }

  /// `METHOD path` with `headers`, HTTP/1.0.
  static func request(
    _ method: String = "GET", _ path: String, headers: [String: String] = [:], host: String = "127.0.0.1",
    port: UInt16
  ) throws -> Response {
    var text = "\(method) \(path) HTTP/1.0\r\nHost: \(host)\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "\r\n"
    return try raw(Array(text.utf8), host: host, port: port)
  }

  static func get(_ path: String, port: UInt16, headers: [String: String] = [:]) throws -> Response {
    try request("GET", path, headers: headers, port: port)
  }

  /// Reads an event stream until `done` holds for the text so far (or the timeout); returns the text.
  static func stream(
    _ path: String, host: String = "127.0.0.1", port: UInt16, headers: [String: String] = [:],
    timeoutSeconds: Double = 60, until done: (String) -> Bool
  ) throws -> String {
    let fd = try connect(host: host, port: port, timeoutSeconds: 2)
    defer { close(fd) }
    var text = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    let request = Array((text + "\r\n").utf8)
    _ = send(fd, request, request.count, Int32(MSG_NOSIGNAL))
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while Date() < deadline {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n == 0 { break }
      if n > 0 { bytes += buffer[0..<n] }
      if done(String(decoding: bytes, as: UTF8.self)) { break }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func parse(_ bytes: [UInt8]) throws -> Response {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no header end in: \(text)") }
    let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure(description: "no status line in: \(text)")
    }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
  }
}
