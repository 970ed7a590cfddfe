import Foundation
import TestSupport
import Testing

/// `broadcast-monitor run` in the background with its HTTP server on a port the kernel picks (`--http
/// 127.0.0.1:0` unless the arguments say otherwise), for the API's end-to-end tests.
final class RunningMonitor {
  let process: BackgroundProcess
  /// The HTTP port, read from the monitor's `HTTP API on` line; 0 when the server is off.
  private(set) var port: UInt16 = 0

  /// Starts the monitor and, unless `waitForHTTP` is false, waits for its HTTP server.
  init(
    _ arguments: [String], folder: TemporaryDirectory, name: String = "monitor", environment: [String: String] = [:],
    waitForHTTP: Bool = true
  ) throws {
    let executable = try #require(CLI.executable, CLI.notBuilt)
    let http = arguments.contains("--http") || arguments.contains("--config") ? [] : ["--http", "127.0.0.1:0"]
    process = try BackgroundProcess(
      executable: executable.path, arguments: ["run", "--log"] + http + arguments, environment: environment,
      outputPath: folder.file("log-\(name).txt").path)
    if waitForHTTP {
      let log = try waitForLog("HTTP API on http://")
      let line = try #require(log.split(separator: "\n").first { $0.contains("HTTP API on http://") })
      let afterHost = try #require(line.range(of: "HTTP API on http://")?.upperBound)
      let rest = line[afterHost...]
      let hostPort = rest.prefix { $0 != "/" }
      port = try #require(UInt16(hostPort.split(separator: ":").last ?? ""), "no port in \(line)")
    }
  }

  deinit { process.terminateAndWait() }

  var output: String { process.output }

  /// Waits until the log contains `text`; fails the test when the monitor exits first or it takes too long.
  @discardableResult
  func waitForLog(_ text: String, seconds: Double = 60) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let log = process.output
      if log.contains(text) { return log }
      try #require(process.isRunning, "the monitor exited before logging \(text):\n\(log)")
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("no \(text) in the log within \(seconds) s:\n\(process.output)")
    throw CancellationError()
  }

  /// Waits until `count` lines of the log contain `text`.
  func waitForLog(_ text: String, count: Int, seconds: Double = 120) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if process.output.components(separatedBy: text).count - 1 >= count { return }
      try #require(process.isRunning, "the monitor exited:\n\(process.output)")
      Thread.sleep(forTimeInterval: 0.1)
    }
    Issue.record("fewer than \(count) `\(text)` in the log within \(seconds) s:\n\(process.output)")
    throw CancellationError()
  }

  /// SIGTERM, then the exit status.
  func stop() -> Int32? {
    process.send(SIGTERM)
    return process.waitForExit(seconds: 30)
  }

  func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPTestClient.Response {
    try HTTPTestClient.get(path, port: port, headers: headers)
  }

  /// An IPv4 address of this machine that is not loopback, nil when it has none.
  static var nonLoopbackAddress: String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var node = list
    while let entry = node {
      defer { node = entry.pointee.ifa_next }
      guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else { continue }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        var raw = $0.pointee.sin_addr
        _ = inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN))
      }
      let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !string.hasPrefix("127.") { return string }
    }
    return nil
  }
}
