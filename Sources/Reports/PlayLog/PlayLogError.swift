/// The play log refused a request. (SQLite failures are ``SQLiteError``s; a play log from a newer version is a
/// ``MigrationError``.)
///
/// A value type: safe to pass between threads.
public enum PlayLogError: Error, CustomStringConvertible, Sendable, Equatable {
  /// `update` named a play the log does not have.
  case noSuchPlay(id: Int64, path: String)
  /// A play or an update was not recorded because a value is unusable; `reason` names it.
  case invalidPlay(reason: String, path: String)
  /// An event was not recorded because a value is unusable; `reason` names it.
  case invalidEvent(reason: String, path: String)
  /// A catalog item's stored attributes are not a JSON object of strings.
  case unreadableAttributes(itemKey: String, path: String)

  public var description: String {
    switch self {
    case .noSuchPlay(let id, let path):
      "cannot update play \(id) in play log \(path): there is no such play. "
        + "This is a bug in broadcast-monitor: please report it with this message."
    case .invalidPlay(let reason, let path):
      "cannot record play in play log \(path): \(reason). "
        + "This is a bug in broadcast-monitor: please report it with this message."
    case .invalidEvent(let reason, let path):
      "cannot record event in play log \(path): \(reason). "
        + "This is a bug in broadcast-monitor: please report it with this message."
    case .unreadableAttributes(let itemKey, let path):
      "cannot read catalog item \(itemKey) in play log \(path): its attributes_json is not a JSON object of "
        + "strings. The file was changed by another program or is damaged: restore it from a backup."
    }
  }
}
