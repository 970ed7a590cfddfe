import Foundation
import Synchronization

/// Limits the wrong tokens a client may try: after ``maxFailures`` wrong tokens within ``windowSeconds`` from one
/// address (`POST /login`, or `Authorization: Bearer` on any path), every further try from it is refused with 429
/// and `Retry-After` until the oldest of them is a window old, whether the token it brings is right or not, so that
/// the token cannot be guessed at the speed of the network. A right token forgets the address's failures. A client
/// logged in by its cookie is not held back: its session id is not a guess.
///
/// An address is an IPv4 address, or the /64 prefix of an IPv6 one (``clientKey(_:)``). The clock is injected
/// (`now`), for the tests.
///
/// Thread: any (a mutex guards the failures).
final class LoginThrottle: Sendable {
  /// Wrong tokens an address may give within ``windowSeconds`` before it must wait: enough for a person to mistype a
  /// few times, while a guesser gets at most 7,200 tries a day, nothing against a token of 16 random characters.
  static let maxFailures = 5
  /// The window the failures are counted in, in seconds; a refused address waits until its oldest failure leaves it.
  static let windowSeconds = 60.0
  /// Addresses remembered at most: beyond it the one whose last failure is oldest is forgotten, so that failures
  /// from many addresses cannot grow the monitor's memory (an attacker with that many addresses gets no more than
  /// 5 tries a minute from each anyway).
  static let maxClients = 10_000

  private let now: @Sendable () -> Date
  /// The times of each address's failures within the window, oldest first.
  private let failures = Mutex<[String: [Date]]>([:])

  init(now: @escaping @Sendable () -> Date = { Date() }) {
    self.now = now
  }

  /// The whole seconds `client` must wait before its next try (at least 1); nil when it may try now.
  func retryAfterSeconds(client: String) -> Int? {
    let now = now()
    return failures.withLock { failures -> Int? in
      guard let times = failures[client] else { return nil }
      let recent = times.filter { now.timeIntervalSince($0) < Self.windowSeconds }
      failures[client] = recent.isEmpty ? nil : recent
      guard recent.count >= Self.maxFailures, let oldest = recent.first else { return nil }
      return max(1, Int((Self.windowSeconds - now.timeIntervalSince(oldest)).rounded(.up)))
    }
  }

  /// Counts a wrong token from `client`.
  func recordFailure(client: String) {
    let now = now()
    failures.withLock { failures in
      let recent = (failures[client] ?? []).filter { now.timeIntervalSince($0) < Self.windowSeconds }
      failures[client] = Array((recent + [now]).suffix(Self.maxFailures))
      guard failures.count > Self.maxClients else { return }
      failures = failures.filter { now.timeIntervalSince($0.value.last ?? now) < Self.windowSeconds }
      while failures.count > Self.maxClients,
        let oldest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })
      {
        failures[oldest.key] = nil
      }
    }
  }

  /// A right token from `client`: its failures are forgotten.
  func recordSuccess(client: String) {
    _ = failures.withLock { $0.removeValue(forKey: client) }
  }

  /// Addresses with failures remembered, for the tests.
  var clientCount: Int { failures.withLock { $0.count } }

  /// The address failures are counted by: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4 one),
  /// an IPv6 address by its /64 prefix, since one subscriber or host gets a whole /64 and could otherwise try from
  /// each of its addresses; `unknown` when the server could not tell (not over a socket).
  static func clientKey(_ address: String?) -> String {
    guard let address else { return "unknown" }
    var bytes = in6_addr()
    guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
    let octets = withUnsafeBytes(of: &bytes) { Array($0) }
    if octets[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff][...] {
      return octets[12...].map { String($0) }.joined(separator: ".")
    }
    let groups = stride(from: 0, to: 8, by: 2).map {
      String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16)
    }
    return groups.joined(separator: ":") + "::/64"
  }
}
