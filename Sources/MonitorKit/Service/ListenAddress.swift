import Foundation

/// Where the HTTP server listens: a numeric IPv4 or IPv6 address (or `localhost`) and a port, parsed from
/// `ADDRESS:PORT` (`127.0.0.1:8750`, `0.0.0.0:8750`, `[::1]:8750`); and the listening socket, opened with an error
/// that names the address and the fix.
///
/// A value type: safe to pass between threads.
struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  struct ParseError: Error, CustomStringConvertible {
    var description: String
  }

  /// The host as written (`localhost` stays `localhost`), without brackets.
  var host: String
  var port: UInt16
  var isIPv6: Bool

  /// Parses `ADDRESS:PORT`. Host names other than `localhost` are refused: the address must not depend on DNS.
  init(parsing text: String) throws(ParseError) {
    let example = "use ADDRESS:PORT, such as 127.0.0.1:8750, 0.0.0.0:8750 or [::1]:8750 (or off)"
    var hostPart: Substring
    let portPart: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
        throw ParseError(description: "`\(text)` is not an address; \(example)")
      }
      hostPart = text[text.index(after: text.startIndex)..<close]
      portPart = text[text.index(close, offsetBy: 2)...]
      isIPv6 = true
    } else {
      guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
        if !text.isEmpty, text.allSatisfy(\.isNumber) {
          throw ParseError(description: "`\(text)` is a port without an address; \(example)")
        }
        throw ParseError(description: "`\(text)` has no port (or an IPv6 address without brackets); \(example)")
      }
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
      isIPv6 = false
    }
    guard let port = UInt16(portPart), portPart.allSatisfy(\.isASCII) else {
      throw ParseError(description: "`\(portPart)` in `\(text)` is not a port (0…65535); \(example)")
    }
    if hostPart == "localhost" { hostPart = "127.0.0.1" }
    var v4 = in_addr()
    var v6 = in6_addr()
    let valid =
      isIPv6 ? inet_pton(AF_INET6, String(hostPart), &v6) == 1 : inet_pton(AF_INET, String(hostPart), &v4) == 1
    guard valid else {
      throw ParseError(description: "`\(hostPart)` in `\(text)` is not a numeric IP address; \(example)")
    }
    host = String(hostPart)
    self.port = port
  }

  /// True for 127.0.0.0/8 and ::1: only this machine can connect.
  var isLoopback: Bool { isIPv6 ? host == "::1" || Self.isLoopback(v6: host) : host.hasPrefix("127.") }

  var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  private static func isLoopback(v6 text: String) -> Bool {
    var address = in6_addr()
    guard inet_pton(AF_INET6, text, &address) == 1 else { return false }
    let bytes = withUnsafeBytes(of: &address) { Array($0) }
    return bytes == [UInt8](repeating: 0, count: 15) + [1]
  }

  /// True when the socket address is a loopback address (127.0.0.0/8, ::1, or ::ffff:127.x.x.x).
  static func isLoopback(_ address: UnsafePointer<sockaddr>) -> Bool {
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
      return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
      }
    case AF_INET6:
      let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
        withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
      }
      if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
      return bytes[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff][...] && bytes[12] == 127
    default:
      return false
    }
  }

  /// The numeric host of a socket address (`192.0.2.7`, `2001:db8::7`), without the port; nil for another family.
  static func numericHost(_ address: UnsafePointer<sockaddr>) -> String? {
    let length: Int
    switch Int32(address.pointee.sa_family) {
    case AF_INET: length = MemoryLayout<sockaddr_in>.size
    case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
    default: return nil
    }
    var host = [CChar](repeating: 0, count: 64)  // a numeric IPv6 address with a zone fits
    guard getnameinfo(address, socklen_t(length), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
      return nil
    }
    return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Why opening the listening socket failed, with the fix.
  struct BindError: Error, CustomStringConvertible {
    var address: ListenAddress
    /// errno of the failed call.
    var code: Int32
    var description: String {
      switch code {
      case EADDRINUSE:
        return
          "HTTP port \(address.port) on \(address.host) is in use by another program (another broadcast-monitor?): "
          + "stop it, or set http.listen (or --http) to a free port such as \(address.host):\(address.port &+ 1), "
          + "or turn the server off with --http off"
      case EACCES:
        return "HTTP port \(address.port) needs privileges (ports below 1024): use a port above 1024, such as "
          + "\(address.host):8750"
      case EADDRNOTAVAIL:
        return "HTTP address \(address.host) is not an address of this machine: use one of its addresses (`ip addr`), "
          + "127.0.0.1, or 0.0.0.0 for all"
      default:
        return "cannot listen on \(address) for HTTP: \(String(cString: strerror(code))); set http.listen (or "
          + "--http) to another address, or --http off"
      }
    }
  }

  /// Opens a TCP socket listening on this address (close-on-exec, SO_REUSEADDR so that a restart does not wait for
  /// old connections), and the port it got (the kernel picks one for port 0).
  func listen(backlog: Int32) throws(BindError) -> (descriptor: Int32, port: UInt16) {
    let family = isIPv6 ? AF_INET6 : AF_INET
    let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw BindError(address: self, code: errno) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var storage = sockaddr_storage()
    var length: socklen_t
    if isIPv6 {
      setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      inet_pton(AF_INET6, host, &address.sin6_addr)
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
      withUnsafeBytes(of: &address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      inet_pton(AF_INET, host, &address.sin_addr)
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
      withUnsafeBytes(of: &address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
    }
    let bound = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, length) == 0 && Glibc.listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      let code = errno
      close(fd)
      throw BindError(address: self, code: code)
    }
    let boundPort = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> UInt16 in
        if isIPv6 {
          return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            UInt16(bigEndian: $0.pointee.sin6_port)
          }
        }
        return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
      }
    }
    return (fd, boundPort)
  }
}
