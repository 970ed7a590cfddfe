import Foundation
import Synchronization
import TestSupport

/// A webhook receiver for the tests: a minimal HTTP/1.1 server on 127.0.0.1 that records each request's body and
/// answers with the status `answer` gives for the request's number (0, 1, …), after the delay it gives.
/// Threads: any thread; it serves on its own threads until released.
final class WebhookReceiver: Sendable {
  let port: UInt16
  var url: String { "http://127.0.0.1:\(port)/hook" }
  private let descriptor: Int32
  private let bodies = Mutex<[String]>([])
  private let answer: @Sendable (Int) -> (status: Int, delaySeconds: Double)

  init(answer: @escaping @Sendable (Int) -> (status: Int, delaySeconds: Double)) throws {
    self.answer = answer
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard fd >= 0, bound else { throw CocoaError(.fileWriteUnknown) }  // cannot listen on 127.0.0.1
    descriptor = fd
    port = UInt16(bigEndian: address.sin_port)
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit { shutdown(descriptor, Int32(SHUT_RDWR)) }

  /// The bodies received so far, in order (answered or not yet).
  var received: [String] { bodies.withLock { $0 } }

  /// Waits until `count` requests came, at most `seconds`.
  func wait(forRequests count: Int, seconds: Double = 30) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while received.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    return received.count >= count
  }

  private func acceptLoop() {
    while true {
      let client = accept(descriptor, nil, nil)
      guard client >= 0 else { return }
      Thread.detachNewThread { [self] in serve(client) }
    }
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let text = String(decoding: data, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") {
        let head = text[..<end.lowerBound].lowercased()
        let length =
          head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let bodyStart = text.utf8.distance(from: text.startIndex, to: end.upperBound)
        if data.count - bodyStart >= length {
          let body = String(decoding: data[bodyStart..<(bodyStart + length)], as: UTF8.self)
          let index = bodies.withLock { bodies in
            bodies.append(body)
            return bodies.count - 1
          }
          let (status, delay) = answer(index)
          if delay > 0 { Thread.sleep(forTimeInterval: delay) }
          let reply = Array("HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
          _ = send(client, reply, reply.count, Int32(MSG_NOSIGNAL))
          return
        }
      }
      let n = recv(client, &buffer, buffer.count, 0)
      if n <= 0 { return }
      data += buffer[0..<n]
    }
  }
}
