import Synchronization

/// The HTTP server's connections shared out between clients, so that one host cannot take them all: a client that
/// opens connections and trickles a header line into each now and then (slowloris) would otherwise hold every one
/// of the server's connections, without a token, and lock everyone out, the monitor's own machine included.
///
/// A client from another host holds at most ``perAddress`` connections (an address is an IPv4 address or the /64
/// of an IPv6 one, as ``LoginThrottle/clientKey(_:)`` groups them: a host on a network can take any address of its
/// /64), and those clients together at most the server's limit less ``reservedForLoopback``, which stay for clients
/// on this machine (a Prometheus or a reverse proxy beside the monitor, `curl` at the console). Loopback clients are
/// not limited here; the server's own limit holds for all.
///
/// Thread: any (a mutex guards the counts); `admits` and `opened` run on libmicrohttpd's listening thread, one
/// connection after the other, `closed` on the connection's thread.
final class ConnectionQuota: Sendable {
  /// Connections one other host may hold: a dashboard holds its event stream and a browser's six at most for its
  /// requests, so this leaves room for a few dozen dashboards behind one address (an office behind NAT).
  static let perAddress = 64
  /// Connections kept for clients on this machine.
  static let reservedForLoopback = 64

  /// Connections from other hosts at most, all together.
  let fromOtherHostsLimit: Int
  private let counts = Mutex<(byAddress: [String: Int], fromOtherHosts: Int)>(([:], 0))

  /// - Parameter connectionLimit: the server's limit on open connections.
  init(connectionLimit: Int) {
    fromOtherHostsLimit = max(0, connectionLimit - Self.reservedForLoopback)
  }

  /// Whether a new connection from `address` (a numeric host, nil when unknown) may open.
  func admits(address: String?, loopback: Bool) -> Bool {
    guard !loopback else { return true }
    let key = LoginThrottle.clientKey(address)
    return counts.withLock {
      $0.fromOtherHosts < fromOtherHostsLimit && $0.byAddress[key, default: 0] < Self.perAddress
    }
  }

  /// Counts a connection that opened.
  func opened(address: String?, loopback: Bool) {
    guard !loopback else { return }
    let key = LoginThrottle.clientKey(address)
    counts.withLock {
      $0.byAddress[key, default: 0] += 1
      $0.fromOtherHosts += 1
    }
  }

  /// Counts a connection that closed.
  func closed(address: String?, loopback: Bool) {
    guard !loopback else { return }
    let key = LoginThrottle.clientKey(address)
    counts.withLock {
      guard let held = $0.byAddress[key] else { return }
      $0.byAddress[key] = held > 1 ? held - 1 : nil
      $0.fromOtherHosts -= 1
    }
  }

  /// Connections open from other hosts, and from `address`'s host; for the tests.
  func held(address: String) -> (fromOtherHosts: Int, fromAddress: Int) {
    let key = LoginThrottle.clientKey(address)
    return counts.withLock { ($0.fromOtherHosts, $0.byAddress[key, default: 0]) }
  }
}
