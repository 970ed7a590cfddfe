/// A file of ours (catalog, signature) that is damaged, truncated, of another version, or not ours at all.
public struct FormatError: Error, CustomStringConvertible, Equatable {
  public var path: String
  public var reason: String
  /// True when the file is a catalog that could not be loaded. A monitor cannot run without its catalog: to the
  /// command line that is a configuration error (exit status 78), not a failure worth restarting for.
  public var isCatalog = false

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }
}
