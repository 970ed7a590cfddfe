/// A file of ours (catalog, signature) that is damaged, truncated, of another version, or not ours at all.
public struct FormatError: Error, CustomStringConvertible, Equatable {
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }
}
