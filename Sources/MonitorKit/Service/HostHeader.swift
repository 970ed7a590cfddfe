import Foundation

/// Whether a request's `Host` header names this machine. A loopback client is trusted without a token only then: a
/// web page in a browser on this machine, or at the far end of an SSH tunnel to it, can make its own domain name
/// resolve to 127.0.0.1 (DNS rebinding) and read the API as its own origin, and its requests carry that domain name
/// as `Host`, which names no address of this machine.
///
/// Names of this machine: an IP address (`127.0.0.1`, `[::1]`, or any other: a page's origin that is an address
/// cannot be rebound), `localhost` and names under `.localhost`, and this machine's host name with or without its
/// domain (`gethostname`; Debian resolves it to 127.0.1.1). No header at all (HTTP/1.0) is this machine too.
///
/// Thread: any (pure functions; the host name is read once).
enum HostHeader {
  /// True when `header` (`HOST[:PORT]`, `[IPV6][:PORT]`) names this machine, or is nil.
  static func namesThisMachine(_ header: String?) -> Bool {
    guard let header else { return true }
    guard let host = host(of: header) else { return false }
    if isAddress(host) { return true }
    var name = host.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    if name == "localhost" || name.hasSuffix(".localhost") { return true }
    return machineNames.contains(name)
  }

  /// The host of a `Host` header without its port and brackets; nil when it is not one.
  static func host(of header: String) -> String? {
    let text = header.trimmingCharacters(in: .whitespaces)
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      let rest = text[text.index(after: close)...]
      guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
      return String(text[text.index(after: text.startIndex)..<close])
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 2, let name = parts.first, !name.isEmpty else { return nil }
    if parts.count == 2, !parts[1].allSatisfy(\.isNumber) { return nil }
    return String(name)
  }

  private static func isAddress(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  /// This machine's host name, lower case, and its first label when it has a domain.
  static let machineNames: Set<String> = {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return [] }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
    guard !name.isEmpty else { return [] }
    return [name, String(name.prefix { $0 != "." })]
  }()
}
