import Foundation

/// TCP on 127.0.0.1 for tests: free ports, a port that accepts connections but never answers, a minimal HTTP probe.
/// Threads: any thread.
public enum LocalTCP {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// A port that was free a moment ago (the kernel picked it for a socket that is closed again).
  public static func freePort() throws -> UInt16 {
    let socket = try ListeningSocket()
    return socket.port
  }

  /// The status code of `GET path` on `port` (e.g. 200), nil when nothing answers.
  public static func httpStatus(port: UInt16, path: String, timeoutSeconds: Double = 2) -> Int? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(
      tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds.truncatingRemainder(dividingBy: 1)) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
    var reply = [UInt8](repeating: 0, count: 256)
    let n = recv(fd, &reply, reply.count, 0)
    guard n > 0 else { return nil }
    let line = String(decoding: reply[0..<n], as: UTF8.self).split(separator: "\r\n").first ?? ""
    let parts = line.split(separator: " ")
    return parts.count >= 2 ? Int(parts[1]) : nil
  }

  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks, that never accepts: a client's connection
/// completes (the kernel queues it) but nothing is ever sent to it, like a server that hangs. Closed on release.
/// Threads: any thread.
public final class ListeningSocket: Sendable {
  public let port: UInt16
  private let descriptor: Int32

  public init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw LocalTCP.Failure(description: "socket: \(String(cString: strerror(errno)))") }
    var address = LocalTCP.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw LocalTCP.Failure(description: "cannot listen on 127.0.0.1: \(reason)")
    }
    descriptor = fd
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(descriptor) }
}
