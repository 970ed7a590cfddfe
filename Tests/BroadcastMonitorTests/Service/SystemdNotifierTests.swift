import Foundation
import TestSupport
import Testing

/// `run` under systemd's notify protocol, with a Unix datagram socket standing in for systemd.
@Suite(
  "sd_notify from run", .enabled(if: CLI.isBuilt, CLI.notBuilt),
  .enabled(if: Subprocess.isInstalled("ffmpeg"), "needs ffmpeg"))
struct SystemdNotifierTests {
  /// A bound Unix datagram socket, as systemd's NOTIFY_SOCKET.
  final class NotifySocket {
    let path: String
    let fd: Int32

    init(path: String) throws {
      self.path = path
      fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { bytes in
        for (index, byte) in path.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
      }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
      }
      try #require(fd >= 0 && bound == 0, "cannot bind \(path): \(String(cString: strerror(errno)))")
      var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The next message, nil after 200 ms without one.
    func receive() -> String? {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let n = recv(fd, &buffer, buffer.count, 0)
      return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }

    /// Messages until one contains `text`, or nil after `seconds`.
    func receive(until text: String, seconds: Double = 60) -> [String]? {
      var messages: [String] = []
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        if let message = receive() {
          messages.append(message)
          if message.contains(text) { return messages }
        }
      }
      return nil
    }
  }

  @Test("READY=1 after the start, WATCHDOG=1 at half of WATCHDOG_USEC, STOPPING=1 at the stop")
  func notifies() throws {
    let folder = try TemporaryDirectory(prefix: "sd-notify")
    try CLI.makeCatalog(at: folder.file("music.bmcat"))
    let notify = try NotifySocket(path: folder.file("notify").path)
    let monitor = try RunningMonitor(
      [
        "--http", "off", "--catalog", folder.file("music.bmcat").path, "--db", folder.file("plays.sqlite").path,
        "--channel", "a=file+loop:" + Fixtures.music("catalog-a.ogg").path,
      ], folder: folder, environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"], waitForHTTP: false)
    let ready = try #require(notify.receive(until: "READY=1"), "no READY=1: \(monitor.output)")
    #expect(ready.last?.contains("STATUS=monitoring 1 channels") == true, "\(ready)")
    #expect(monitor.output.contains("listening to"), "ready only once the channels listen: \(monitor.output)")
    let began = Date()
    var pings = 0
    while pings < 3, Date().timeIntervalSince(began) < 10 {
      if notify.receive()?.contains("WATCHDOG=1") == true { pings += 1 }
    }
    #expect(pings == 3, "three pings in \(Date().timeIntervalSince(began)) s")
    #expect(Date().timeIntervalSince(began) < 2, "every 0.2 s, half of WATCHDOG_USEC")
    monitor.process.send(SIGTERM)
    #expect(notify.receive(until: "STOPPING=1", seconds: 20) != nil)
    #expect(monitor.process.waitForExit(seconds: 20) == 0)
  }

  @Test("without NOTIFY_SOCKET nothing is sent and run starts as before")
  func withoutNotifySocket() throws {
    let folder = try TemporaryDirectory(prefix: "sd-notify")
    try CLI.makeCatalog(at: folder.file("music.bmcat"))
    let notify = try NotifySocket(path: folder.file("notify").path)
    let monitor = try RunningMonitor(
      [
        "--http", "off", "--catalog", folder.file("music.bmcat").path, "--db", folder.file("plays.sqlite").path,
        "--channel", "a=file+loop:" + Fixtures.music("catalog-a.ogg").path,
      ], folder: folder, environment: ["NOTIFY_SOCKET": "", "WATCHDOG_USEC": "400000"], waitForHTTP: false)
    try monitor.waitForLog("listening to")
    #expect(notify.receive() == nil)
    #expect(monitor.stop() == 0)
  }
}
