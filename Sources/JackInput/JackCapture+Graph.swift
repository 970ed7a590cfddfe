import CJack

/// What the live monitor asks about the JACK graph around a capture: whether it changed, what feeds each input
/// port, and whether a port exists.
extension JackCapture {
  /// How many times the server's graph changed since activation: a port registered or unregistered, or a
  /// connection made or broken, anywhere on the server. A monitor compares it with the value it last saw and, when
  /// it moved, checks its connections again (`connections(of:)`, `portExists(_:)`). Counted by JACK's notification
  /// thread; any thread may read it, also after `close()`.
  public var graphChanges: Int { state.pointee.graphChanges.load(ordering: .acquiring) }

  /// Full names of the ports connected to one of this capture's input ports (short name like `ch1_L`, or full
  /// name), in JACK's order; empty when nothing is connected. Non-JACK thread (control or worker; never a JACK
  /// callback).
  /// - Throws: `.unknownPort` when `port` is not one of this capture's ports; `.notRunning` once closed or when the
  ///   server shut down.
  public func connections(of port: String) throws(JackClientError) -> [String] {
    guard let index = portNames.firstIndex(of: port) ?? fullPortNames.firstIndex(of: port) else {
      throw .unknownPort(port)
    }
    let names: [String]? = client.withLock { client in
      guard let client, let own = common.pointee.ports[index] else { return nil }
      return JackClientLibrary.takeNames(jack_port_get_all_connections(client, own))
    }
    guard let names, !serverShutDown else { throw .notRunning }
    return names
  }

  /// True when the server has a port with this full name (`client:port`, e.g. `system:capture_1`), of any type and
  /// direction. False once the capture is closed or its server shut down. Non-JACK thread (control or worker).
  public func portExists(_ fullName: String) -> Bool {
    client.withLock { client in
      guard let client, !serverShutDown else { return false }
      return jack_port_by_name(client, fullName) != nil
    }
  }
}
