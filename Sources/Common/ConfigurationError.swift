/// A configuration value that cannot work, with the key path that names it and the reason.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
  public var keyPath: String
  public var reason: String

  public init(keyPath: String, reason: String) {
    self.keyPath = keyPath
    self.reason = reason
  }

  public var description: String { "configuration: \(keyPath): \(reason)" }
}
