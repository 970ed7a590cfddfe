import Foundation
import Synchronization
import Testing

@testable import MonitorKit

/// A clock the test moves by hand.
final class ManualClock: Sendable {
  private let time = Mutex(Date(timeIntervalSince1970: 1_796_000_000))

  var now: @Sendable () -> Date { { self.time.withLock { $0 } } }

  func advance(seconds: Double) { time.withLock { $0 += seconds } }
}

@Suite("Login throttle")
struct LoginThrottleTests {
  @Test("5 wrong tokens within a minute, then the address waits until the oldest is a minute old")
  func limit() {
    let clock = ManualClock()
    let throttle = LoginThrottle(now: clock.now)
    for _ in 0..<LoginThrottle.maxFailures {
      #expect(throttle.retryAfterSeconds(client: "192.0.2.7") == nil)
      throttle.recordFailure(client: "192.0.2.7")
      clock.advance(seconds: 10)
    }
    // The first failure was 50 s ago: 10 s to wait.
    #expect(throttle.retryAfterSeconds(client: "192.0.2.7") == 10)
    #expect(throttle.retryAfterSeconds(client: "192.0.2.8") == nil, "another address is not held back")
    clock.advance(seconds: 9.5)
    #expect(throttle.retryAfterSeconds(client: "192.0.2.7") == 1, "whole seconds, rounded up")
    clock.advance(seconds: 0.5)
    #expect(throttle.retryAfterSeconds(client: "192.0.2.7") == nil, "the oldest left the window: one more try")
    throttle.recordFailure(client: "192.0.2.7")
    #expect(throttle.retryAfterSeconds(client: "192.0.2.7") == 10, "and the next oldest sets the wait")
  }

  @Test("a right token forgets the address's failures; failures a minute old no longer count")
  func forgetting() {
    let clock = ManualClock()
    let throttle = LoginThrottle(now: clock.now)
    for _ in 0..<4 { throttle.recordFailure(client: "a") }
    throttle.recordSuccess(client: "a")
    for _ in 0..<4 { throttle.recordFailure(client: "a") }
    #expect(throttle.retryAfterSeconds(client: "a") == nil, "4 since the right token")
    clock.advance(seconds: LoginThrottle.windowSeconds)
    throttle.recordFailure(client: "a")
    #expect(throttle.retryAfterSeconds(client: "a") == nil, "the 4 before are a minute old")
    #expect(throttle.clientCount == 1)
  }

  @Test("the addresses remembered are bounded: the one whose last failure is oldest goes first")
  func bounded() {
    let clock = ManualClock()
    let throttle = LoginThrottle(now: clock.now)
    for _ in 0..<LoginThrottle.maxFailures { throttle.recordFailure(client: "first") }
    clock.advance(seconds: 1)
    for _ in 0..<LoginThrottle.maxFailures { throttle.recordFailure(client: "last") }
    for number in 0..<(LoginThrottle.maxClients - 1) { throttle.recordFailure(client: "client-\(number)") }
    #expect(throttle.clientCount == LoginThrottle.maxClients)
    #expect(throttle.retryAfterSeconds(client: "first") == nil, "forgotten")
    #expect(throttle.retryAfterSeconds(client: "last") != nil, "still held back")
  }

  @Test(
    "failures count by IPv4 address, by IPv6 /64 (an IPv4-mapped address as IPv4)",
    arguments: [
      ("192.0.2.7", "192.0.2.7"), ("::ffff:192.0.2.7", "192.0.2.7"),
      ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"), ("2001:db8:1:2:bbbb:cccc:dddd:eeee", "2001:db8:1:2::/64"),
      ("::1", "0:0:0:0::/64"),
    ])
  func clientKey(address: String, key: String) {
    #expect(LoginThrottle.clientKey(address) == key)
    #expect(LoginThrottle.clientKey(nil) == "unknown")
  }

  @Test("a login lasts its 30 days, ends at logout, and the logins held are bounded")
  func sessions() {
    let clock = ManualClock()
    let sessions = LoginSessions(now: clock.now)
    let id = sessions.open()
    #expect(id.count == 64 && id.allSatisfy(\.isHexDigit), "\(id)")
    #expect(sessions.open() != id)
    #expect(sessions.isOpen(id) && !sessions.isOpen(id.uppercased()) && !sessions.isOpen(""))
    clock.advance(seconds: Double(SessionCookie.maxAgeSeconds) - 1)
    #expect(sessions.isOpen(id))
    clock.advance(seconds: 1)
    #expect(!sessions.isOpen(id), "30 days")
    let other = sessions.open()
    sessions.close(other)
    #expect(!sessions.isOpen(other))
    for _ in 0..<(LoginSessions.maxSessions + 10) { _ = sessions.open() }
    #expect(sessions.count == LoginSessions.maxSessions)
  }
}
