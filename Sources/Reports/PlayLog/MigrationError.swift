/// A database records schema migrations this build does not know: it was written by a newer broadcast-monitor.
/// The database is left untouched.
///
/// A value type: safe to pass between threads.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
  /// The database file.
  public let path: String
  /// What the database is to the user, such as "play log".
  public let databaseName: String
  /// The recorded ids this build does not know.
  public let unknownIDs: [String]
  /// The ids this build knows, in order.
  public let knownIDs: [String]

  public var description: String {
    "cannot open \(databaseName) \(path): it was written by a newer version of broadcast-monitor "
      + "(unknown schema migrations: \(unknownIDs.joined(separator: ", ")); this version knows up to "
      + "\(knownIDs.last ?? "none")). Upgrade broadcast-monitor, or give this version another file."
  }
}
