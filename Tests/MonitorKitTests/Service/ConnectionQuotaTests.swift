import TestSupport
import Testing

@testable import MonitorKit

/// The HTTP server's connections shared out between clients: a host's share, the room kept for loopback.
@Suite("ConnectionQuota")
struct ConnectionQuotaTests {
  @Test("a host gets its share and no more, its /64 counts as one, and loopback is never held back")
  func shares() {
    let quota = ConnectionQuota(connectionLimit: 512)
    for _ in 0..<ConnectionQuota.perAddress {
      #expect(quota.admits(address: "192.0.2.7", loopback: false))
      quota.opened(address: "192.0.2.7", loopback: false)
    }
    #expect(!quota.admits(address: "192.0.2.7", loopback: false), "its share is taken")
    #expect(quota.admits(address: "192.0.2.8", loopback: false), "another host is not held back")
    #expect(quota.admits(address: "127.0.0.1", loopback: true))
    quota.closed(address: "192.0.2.7", loopback: false)
    #expect(quota.admits(address: "192.0.2.7", loopback: false), "a connection closed frees a place")

    for suffix in 0..<ConnectionQuota.perAddress {
      quota.opened(address: "2001:db8:1:2::\(String(suffix, radix: 16))", loopback: false)
    }
    #expect(!quota.admits(address: "2001:db8:1:2:ffff::9", loopback: false), "any address of the same /64")
    #expect(quota.admits(address: "2001:db8:1:3::1", loopback: false), "another /64")
  }

  @Test("hosts together leave the loopback reserve: many addresses cannot take every connection")
  func reserve() {
    let quota = ConnectionQuota(connectionLimit: 512)
    var opened = 0
    for host in 0..<100 {
      while quota.admits(address: "198.51.100.\(host)", loopback: false) {
        quota.opened(address: "198.51.100.\(host)", loopback: false)
        opened += 1
      }
    }
    #expect(opened == 512 - ConnectionQuota.reservedForLoopback)
    #expect(quota.admits(address: "::1", loopback: true))
  }

  @Test("counts follow opened and closed connections as a model does, seeded")
  func model() {
    for index in 0..<PropertyCheck.cases(50) {
      var random = PropertyCheck.generator(case: index)
      let limit = Int.random(in: ConnectionQuota.reservedForLoopback...600, using: &random)
      let quota = ConnectionQuota(connectionLimit: limit)
      let hosts = ["192.0.2.1", "192.0.2.2", "2001:db8::1", "2001:db8::2", "127.0.0.1"]
      var open: [String] = []
      for _ in 0..<2_000 {
        let host = hosts.randomElement(using: &random)!
        let loopback = host == "127.0.0.1"
        if Bool.random(using: &random), let at = open.indices.randomElement(using: &random) {
          let closing = open.remove(at: at)
          quota.closed(address: closing, loopback: closing == "127.0.0.1")
          continue
        }
        let fromOthers = open.filter { $0 != "127.0.0.1" }.count
        let fromHost = open.filter { LoginThrottle.clientKey($0) == LoginThrottle.clientKey(host) }.count
        let expected =
          loopback
          || (fromOthers < limit - ConnectionQuota.reservedForLoopback && fromHost < ConnectionQuota.perAddress)
        let admitted = quota.admits(address: host, loopback: loopback)
        #expect(admitted == expected, "\(PropertyCheck.origin(case: index)): \(host) with \(open.count) open")
        if admitted {
          quota.opened(address: host, loopback: loopback)
          open.append(host)
        }
      }
      let fromOthers = open.filter { $0 != "127.0.0.1" }.count
      #expect(quota.held(address: "192.0.2.1").fromOtherHosts == fromOthers, "\(PropertyCheck.origin(case: index))")
    }
  }
}
