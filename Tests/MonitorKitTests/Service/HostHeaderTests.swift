import Testing

@testable import MonitorKit

/// Whether a request's `Host` names this machine: a loopback client is trusted without a token only then.
@Suite("HostHeader")
struct HostHeaderTests {
  @Test(
    "addresses, localhost and this machine's name name this machine; other names (DNS rebinding) do not",
    arguments: [
      ("127.0.0.1:8750", true), ("127.0.0.1", true), ("[::1]:8750", true), ("[::1]", true), ("localhost", true),
      ("LOCALHOST:8750", true), ("localhost.:8750", true), ("monitor.localhost:8750", true), ("192.0.2.7:8750", true),
      ("attacker.example:8750", false), ("attacker.example", false), ("localhost.attacker.example", false),
      ("127.0.0.1.nip.io:8750", false), ("", false), ("[::1", false), ("[::1]x", false), ("a:b:c", false),
      ("localhost:http", false),
    ] as [(String, Bool)])
  func names(header: String, expected: Bool) {
    #expect(HostHeader.namesThisMachine(header) == expected, "\(header)")
  }

  @Test("no Host header (HTTP/1.0) and this machine's own name are this machine")
  func noHeaderAndMachineName() throws {
    #expect(HostHeader.namesThisMachine(nil))
    let name = try #require(HostHeader.machineNames.first, "this machine has no host name")
    #expect(HostHeader.namesThisMachine(name + ":8750"))
    #expect(HostHeader.namesThisMachine(name.uppercased()))
  }
}
