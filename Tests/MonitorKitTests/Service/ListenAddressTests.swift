import Common
import Foundation
import Matcher
import TestSupport
import Testing

@testable import MonitorKit

@Suite("HTTP listen address")
struct ListenAddressTests {
  @Test(
    "ADDRESS:PORT is read for IPv4, bracketed IPv6 and localhost; loopback is told apart",
    arguments: [
      ("127.0.0.1:8750", "127.0.0.1", 8750, true), ("0.0.0.0:80", "0.0.0.0", 80, false),
      ("localhost:1", "127.0.0.1", 1, true), ("[::1]:8750", "::1", 8750, true), ("[::]:0", "::", 0, false),
      ("127.1.2.3:9", "127.1.2.3", 9, true), ("192.0.2.7:8750", "192.0.2.7", 8750, false),
    ] as [(String, String, UInt16, Bool)])
  func parses(text: String, host: String, port: UInt16, loopback: Bool) throws {
    let address = try ListenAddress(parsing: text)
    #expect(address.host == host && address.port == port && address.isLoopback == loopback)
  }

  @Test(
    "anything else is refused with the forms that work",
    arguments: [
      "8750", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "example.org:80", "::1:8750",
      "[::1]8750", "[nonsense]:1", "1.2.3:4", "127.0.0.1:８７５０", "",
    ])
  func refuses(text: String) {
    #expect(throws: ListenAddress.ParseError.self) { try ListenAddress(parsing: text) }
    do { _ = try ListenAddress(parsing: text) } catch { #expect(error.description.contains("127.0.0.1:8750")) }
  }

  @Test("a port alone is said to lack its address")
  func portAlone() {
    do {
      _ = try ListenAddress(parsing: "8750")
      Issue.record("8750 parsed")
    } catch {
      #expect(error.description.hasPrefix("`8750` is a port without an address"), "\(error)")
    }
  }

  @Test("a loopback configuration needs no token; another address needs http.token or a readable tokenFile")
  func settings() throws {
    let origin = ConfigurationOrigin(file: "monitor.json5")
    try HTTPSettings().validate(origin: origin)
    try HTTPSettings(listen: "off").validate(origin: origin)
    try HTTPSettings(listen: "0.0.0.0:8750", token: "0123456789abcdef").validate(origin: origin)
    let short = try #require(throws: ConfigurationError.self) {
      try HTTPSettings(listen: "0.0.0.0:8750", token: "abc").validate(origin: origin)
    }
    #expect(short.keyPath == "monitor.json5: http.token" && short.reason.contains("has 3 characters; use at least 16"))
    let both = try #require(throws: ConfigurationError.self) {
      try HTTPSettings(listen: "0.0.0.0:8750", token: "0123456789abcdef", tokenFile: "/t").validate(origin: origin)
    }
    #expect(both.keyPath == "monitor.json5: http.tokenFile" && both.reason.contains("keep one of them"))
    #expect(throws: ConfigurationError.self) { try HTTPSettings(listen: "0.0.0.0:8750").validate(origin: origin) }
    #expect(throws: ConfigurationError.self) {
      try HTTPSettings(listen: "0.0.0.0:8750", token: "two words").validate(origin: origin)
    }
    do {
      try HTTPSettings(listen: "0.0.0.0:8750", tokenFile: "/nonexistent/token").validate(origin: origin)
      Issue.record("a missing token file is refused")
    } catch {
      #expect(error.keyPath == "monitor.json5: http.tokenFile" && error.reason.contains("openssl rand"), "\(error)")
    }
  }

  @Test("the socket listens on the port asked for, and on the one the kernel picks for port 0")
  func listensOnThePort() throws {
    let free = try LocalTCP.freePort()
    let asked = try ListenAddress(parsing: "127.0.0.1:\(free)").listen(backlog: 4)
    defer { close(asked.descriptor) }
    #expect(asked.port == free)
    #expect(LocalTCP.httpStatus(port: free, path: "/", timeoutSeconds: 0.2) == nil, "it accepts: nothing answers")
    let picked = try ListenAddress(parsing: "127.0.0.1:0").listen(backlog: 4)
    defer { close(picked.descriptor) }
    #expect(picked.port != 0 && picked.port != free)
    let inUse = Result { try ListenAddress(parsing: "127.0.0.1:\(free)").listen(backlog: 4) }
    guard case .failure(let error as ListenAddress.BindError) = inUse else {
      Issue.record("a second socket on port \(free) is refused: \(inUse)")
      return
    }
    #expect(error.code == EADDRINUSE && error.description.contains("HTTP port \(free) on 127.0.0.1 is in use"))
  }
}
