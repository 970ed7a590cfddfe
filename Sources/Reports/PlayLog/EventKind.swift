/// What happened to the monitor or a channel: the `kind` of a row of the play log's `events` table, the kind of a
/// notice a channel's input reports, and the `event` field of a line of the monitor's log (which adds the kinds
/// that are not stored in the events table: the monitor's `EventKind+MonitorLog.swift`). One type for all three,
/// so that a notice becomes a row and a log line without a translation.
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
  /// The audio server missed a deadline (a JACK xrun): a cycle of audio may be lost or late.
  public static let xrun: EventKind = "xrun"
  /// A channel's matcher fell behind real time: audio waited to be analysed.
  public static let lagging: EventKind = "lagging"
  /// The monitor started (after a stop or a crash).
  public static let restart: EventKind = "restart"
}
