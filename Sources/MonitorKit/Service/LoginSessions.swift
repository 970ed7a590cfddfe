import Foundation
import Synchronization

/// The dashboard's logins from other hosts, held by the monitor: `POST /login` with the token opens one and its id
/// goes to the browser in the login cookie (`SessionCookie`); `POST /logout` closes it, so that the cookie is worth
/// nothing from then on, even a copy of it. An id is 32 random bytes (from the system's secure generator, getrandom),
/// in hex: the cookie never holds the token. A login lasts ``SessionCookie/maxAgeSeconds``, and ends with the
/// monitor (a restart logs every browser out). The clock is injected (`now`), for the tests.
///
/// Thread: any (a mutex guards the sessions).
final class LoginSessions: Sendable {
  /// Logins held at most: far more browsers than a station has; beyond it the one that ends soonest is closed, so
  /// that logins cannot grow the monitor's memory.
  static let maxSessions = 1_000

  private let now: @Sendable () -> Date
  /// When each open login ends, by id.
  private let sessions = Mutex<[String: Date]>([:])

  init(now: @escaping @Sendable () -> Date = { Date() }) {
    self.now = now
  }

  /// Opens a login; returns its id.
  func open() -> String {
    var generator = SystemRandomNumberGenerator()
    let id = (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }
      .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    let now = now()
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value > now }
      while sessions.count >= Self.maxSessions, let soonest = sessions.min(by: { $0.value < $1.value }) {
        sessions[soonest.key] = nil
      }
      sessions[id] = now.addingTimeInterval(Double(SessionCookie.maxAgeSeconds))
    }
    return id
  }

  /// True when `id` is an open login that has not ended.
  func isOpen(_ id: String) -> Bool {
    let now = now()
    return sessions.withLock { $0[id].map { $0 > now } ?? false }
  }

  /// Closes the login `id` (nothing when there is none).
  func close(_ id: String) {
    _ = sessions.withLock { $0.removeValue(forKey: id) }
  }

  /// Closes every login (the token changed).
  func closeAll() {
    sessions.withLock { $0.removeAll() }
  }

  /// Open logins, for the tests.
  var count: Int { sessions.withLock { $0.count } }
}
