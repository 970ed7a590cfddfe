/// What happened to the monitor or a channel, as stored in the play log's `events` table.
///
/// An open set: the constants are the kinds the monitor writes today; any other word can be stored.
///
/// A value type: safe to pass between threads.
public struct EventKind: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public init(stringLiteral value: String) { self.rawValue = value }

  /// The input was silent or missing: plays in this span could not be detected.
  public static let gap: EventKind = "gap"
  /// The audio source was lost and found again.
  public static let reconnect: EventKind = "reconnect"
  /// Audio was dropped because processing fell behind.
  public static let overrun: EventKind = "overrun"
  /// The monitor started (after a stop or a crash).
  public static let restart: EventKind = "restart"
}
