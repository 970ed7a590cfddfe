import Foundation

/// A cheap look at whether a network stream's source is back, made between reconnection attempts: one TCP
/// connection to the URL's host and port and, for `http://`, one `GET` of the URL's path whose status line is read
/// before the connection is closed. It costs a few system calls, where an attempt (an ffmpeg run) costs about 65 ms
/// of CPU.
///
/// What `.up` proves depends on the scheme:
/// - `http://`: the server answers the path with a 2xx or 3xx status. For Icecast this means the mount has its
///   source again; a bare TCP connection would prove nothing there, since a mount without a source answers 404
///   while the server is up.
/// - `https://`, `rtmp://`, `rtsp://`, `tcp://`: only that the server accepts connections (the probe speaks neither
///   TLS nor those protocols).
///
/// Other schemes (`udp://`, `srt://`, `rtp://` …) cannot be probed: `init(url:)` returns nil.
///
/// Threads: a value; the reader thread uses it.
struct StreamProbe: Sendable {
  enum Answer: Equatable, Sendable {
    /// The server answered as a live source would (see the type's comment for what that proves).
    case up
    /// Refused, no answer within the timeout, or an HTTP status other than 2xx and 3xx.
    case down
    /// The wake signal came (`stop()`) before an answer.
    case stopped
  }

  /// A resolved address of the host.
  struct Address {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
  }

  let host: String
  let port: UInt16
  /// The path and query to ask for (`http://` only); nil when the probe is a bare TCP connection.
  let httpPath: String?
  /// `Basic …` for a URL that carries a user and password, so that a protected stream is not probed as down.
  let authorization: String?

  /// The probe for a stream URL, nil for a scheme it cannot probe or a URL without a host.
  init?(url: String) {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      var host = components.host, !host.isEmpty
    else { return nil }
    let defaultPorts = ["http": 80, "https": 443, "rtmp": 1935, "rtsp": 554, "tcp": -1]
    guard let defaultPort = defaultPorts[scheme] else { return nil }
    guard let port = components.port ?? (defaultPort > 0 ? defaultPort : nil), (1...65535).contains(port) else {
      return nil
    }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    self.host = host
    self.port = UInt16(port)
    if scheme == "http" {
      let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
      httpPath = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
      if let user = components.user {
        let credentials = user + ":" + (components.password ?? "")
        authorization = "Basic " + Data(credentials.utf8).base64EncodedString()
      } else {
        authorization = nil
      }
    } else {
      httpPath = nil
      authorization = nil
    }
  }

  /// The host's first address for a TCP connection, nil when it cannot be resolved. May block for a DNS lookup.
  func resolve() -> Address? {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
    defer { freeaddrinfo(list) }
    var address = Address()
    guard let found = first.pointee.ai_addr, Int(first.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
    else { return nil }
    address.length = first.pointee.ai_addrlen
    withUnsafeMutableBytes(of: &address.storage) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(start: found, count: Int(address.length)))
    }
    return address
  }

  /// Connects to `address` and, for `http://`, asks for the path and reads the status line, then closes. Waits at
  /// most `timeoutSeconds` in all, and returns `.stopped` at once when `wake` is signalled.
  func check(_ address: Address, timeoutSeconds: Double, wake: WakeSignal) -> Answer {
    var address = address
    let family = Int32(address.storage.ss_family)
    let fd = socket(
      family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return .down }
    defer { close(fd) }
    let deadline = StreamReader.monotonicSeconds() + timeoutSeconds
    let connected = withUnsafePointer(to: &address.storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
    }
    if connected != 0 {
      guard errno == EINPROGRESS else { return .down }
      switch wait(fd, for: Int16(POLLOUT), until: deadline, wake: wake) {
      case .stopped: return .stopped
      case .down: return .down
      case .up: break
      }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else { return .down }
    }
    guard let httpPath else { return .up }
    var request = "GET \(httpPath) HTTP/1.0\r\nHost: \(host)\r\nUser-Agent: broadcast-monitor probe\r\n"
    if let authorization { request += "Authorization: \(authorization)\r\n" }
    let bytes = Array((request + "\r\n").utf8)
    guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return .down }
    var reply: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 256)
    while !reply.contains(UInt8(ascii: "\n")) && reply.count < 1024 {
      switch wait(fd, for: Int16(POLLIN), until: deadline, wake: wake) {
      case .stopped: return .stopped
      case .down: return .down
      case .up: break
      }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      guard count > 0 else { return .down }
      reply += chunk[0..<count]
    }
    return Self.isLive(statusLine: reply) ? .up : .down
  }

  /// True for an HTTP (or SHOUTcast `ICY`) status line with a 2xx or 3xx status.
  static func isLive(statusLine reply: [UInt8]) -> Bool {
    let line = String(decoding: reply.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/") || parts[0] == "ICY", let status = Int(parts[1]) else {
      return false
    }
    return (200..<400).contains(status)
  }

  /// Polls `fd` for `events` until `deadline`: `.up` when ready, `.down` at the deadline or on an error,
  /// `.stopped` when `wake` is signalled.
  private func wait(_ fd: Int32, for events: Int16, until deadline: Double, wake: WakeSignal) -> Answer {
    while true {
      let left = deadline - StreamReader.monotonicSeconds()
      if left <= 0 { return .down }
      var fds = [
        pollfd(fd: wake.pollDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: fd, events: events, revents: 0),
      ]
      let result = poll(&fds, nfds_t(fds.count), Int32((left * 1000).rounded(.up)))
      if result < 0 && errno != EINTR { return .down }
      if fds[0].revents != 0 { return .stopped }
      if fds[1].revents != 0 { return .up }
    }
  }
}
